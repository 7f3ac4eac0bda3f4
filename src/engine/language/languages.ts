// Language names and ISO 639-1 codes, in English, from CLDR through Intl (no table of our own): for a
// language parameter ("de-en" for "German-English", "pl" for "Polish") given the languages by name.
let languageNames: Map<string, string> | undefined;

/** Language names in English (CLDR, through Intl) to ISO 639-1 codes ("spanish" → es). */
export function languages(): Map<string, string> {
  if (languageNames) return languageNames;
  languageNames = new Map();
  const display = new Intl.DisplayNames("en", { type: "language", fallback: "none" });
  for (let a = 97; a <= 122; a++) {
    for (let b = 97; b <= 122; b++) {
      const code = String.fromCharCode(a, b);
      let name: string | undefined;
      try {
        name = display.of(code);
      } catch {
        continue;
      }
      // Only a language CLDR names; the first code for a name wins (a deprecated code comes later: "iw").
      if (name && name.toLowerCase() !== code && !languageNames.has(name.toLowerCase())) languageNames.set(name.toLowerCase(), code);
    }
  }
  return languageNames;
}

/** The languages a text names, in the order it names them, each once: [code, start, end]. */
export function languagesNamed(text: string): { code: string; start: number; end: number }[] {
  const out: { code: string; start: number; end: number }[] = [];
  // Words one or two at a time ("Haitian Creole", "Norwegian Bokmål"): the longest name at each place.
  for (const m of text.matchAll(/\p{L}+(?:\s+\p{L}+)?/gu)) {
    const words = m[0].split(/\s+/);
    for (const n of [2, 1]) {
      if (words.length < n) continue;
      const name = words.slice(0, n).join(" ");
      const code = languages().get(name.toLowerCase());
      // (A capital letter: "polish the brass" is no language.)
      if (!code || !/^\p{Lu}/u.test(name)) continue;
      if (!out.some((o) => o.code === code)) out.push({ code, start: m.index!, end: m.index! + name.length });
      break;
    }
  }
  // The matches above step two words at a time; read the second word of each pair on its own as well.
  for (const m of text.matchAll(/(?<=\p{L}+[\s-]+)\p{L}+/gu)) {
    const code = languages().get(m[0].toLowerCase());
    if (code && /^\p{Lu}/u.test(m[0]) && !out.some((o) => o.code === code)) out.push({ code, start: m.index!, end: m.index! + m[0].length });
  }
  return out.sort((a, b) => a.start - b.start);
}
