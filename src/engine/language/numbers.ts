// Numbers written in words ("twenty", "twelve hundred", "two thousand five hundred", "a dozen"), read by the
// grammar of English cardinals rather than a list of phrases: units and teens add, "hundred" multiplies the
// group so far, larger scales close a group.
const SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30,
  forty: 40, fourty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
const ORDINALS: Record<string, number> = { half: 0.5, quarter: 0.25 };

export const isNumberWord = (w: string): boolean => w in SMALL || w === "hundred" || w in SCALES || w === "dozen" || (w.includes("-") && w.split("-").every((p) => p in SMALL));

/**
 * Reads a number from the words at `start`; returns the value and how many words it took, or undefined.
 * "and" is allowed between groups ("one hundred and five"); "ninety-nine" is one word.
 */
export function readNumberWords(words: readonly string[], start: number): { value: number; length: number } | undefined {
  // "a hundred", "a thousand", "a dozen": the article is one.
  if ((words[start] === "a" || words[start] === "an") && ["hundred", "thousand", "million", "billion", "dozen"].includes(words[start + 1] ?? "")) {
    const rest = readNumberWords(["one", ...words.slice(start + 1)], 0);
    return rest ? { value: rest.value, length: rest.length } : undefined;
  }
  let total = 0;
  let group = 0;
  let taken = 0;
  let any = false;
  let last = 0;
  // A word of SMALL adds to the group only where English puts one: first, after "hundred", or a unit after
  // a tens word ("twenty five"); "seven fifteen" is two numbers (a clock time said aloud), not 22.
  const adds = (n: number) => group % 100 === 0 || (last >= 20 && last % 10 === 0 && n < 10);
  for (let i = start; i < words.length; i++) {
    const w = words[i]!;
    const [tens, unit] = w.split("-");
    if (w in SMALL && adds(SMALL[w]!)) {
      group += SMALL[w]!;
      last = SMALL[w]!;
    } else if (unit !== undefined && tens! in SMALL && unit in SMALL && SMALL[tens!]! >= 20 && SMALL[unit]! < 10 && group % 100 === 0) {
      // "ninety-nine": the tokenizer keeps a hyphenated word whole.
      group += SMALL[tens!]! + SMALL[unit]!;
    } else if (w === "hundred" && any) {
      group = (group || 1) * 100;
    } else if (w in SCALES && any) {
      total += (group || 1) * SCALES[w]!;
      group = 0;
    } else if (w === "dozen") {
      group = (group || 1) * 12;
    } else if (w === "and" && any && i + 1 < words.length && (words[i + 1]! in SMALL || /^[a-z]+-[a-z]+$/.test(words[i + 1]!) && words[i + 1]!.split("-").every((p) => p in SMALL))) {
      // "one hundred and five", "three hundred and forty-seven".
      taken++;
      continue;
    } else if (w === "and" && any && words[i + 1] === "a" && words[i + 2] === "half") {
      // "two and a half thousand"
      group += 0.5;
      taken += 3;
      i += 2;
      continue;
    } else break;
    any = true;
    taken++;
  }
  if (!any) return undefined;
  // "fourteen point six", "two point five oh": decimals said aloud, one digit word each ("oh" or "zero"
  // for 0). Only a whole number read so far, and at least one digit after "point".
  const digit = (w: string | undefined) => (w === "oh" || w === "o" ? 0 : w !== undefined && w in SMALL && SMALL[w]! < 10 ? SMALL[w] : undefined);
  if (words[start + taken] === "point" && digit(words[start + taken + 1]) !== undefined) {
    let decimals = "";
    let k = start + taken + 1;
    for (; digit(words[k]) !== undefined; k++) decimals += String(digit(words[k]));
    return { value: Number(`${total + group}.${decimals}`), length: k - start };
  }
  // "one" alone is usually an article ("one of", "any one"), not a count.
  if (taken === 1 && words[start] === "one") return undefined;
  return { value: total + group, length: taken };
}

export const fractionWord = (w: string): number | undefined => ORDINALS[w];

// Parts of a whole as English names them: "half", "a third", "two thirds", "three quarters", "a tenth".
const PARTS: Record<string, number> = { half: 2, halves: 2, third: 3, thirds: 3, quarter: 4, quarters: 4, fourth: 4, fourths: 4, fifth: 5, fifths: 5, tenth: 10, tenths: 10 };

/**
 * A fraction in words at `start` ("half", "a half", "a third", "two thirds", "three quarters"): its value
 * (0.5, 0.333…) and how many words it took, or undefined.
 */
export function readFractionWords(words: readonly string[], start: number): { value: number; length: number } | undefined {
  const first = words[start];
  if (first === undefined) return undefined;
  if (first === "half") return { value: 0.5, length: 1 };
  const count = first === "a" || first === "an" || first === "one" ? 1 : SMALL[first];
  const part = PARTS[words[start + 1] ?? ""];
  if (count === undefined || count === 0 || part === undefined || count >= part) return undefined;
  return { value: count / part, length: 2 };
}
