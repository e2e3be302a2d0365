// The card search language (docs/search.md) on a copy of the site with no server: the query
// is read as charnel.query reads it and each term is applied to the values the build wrote
// for it (charnel.site.field_index, /<game>/search/fields/). Fields, aliases, kinds, closed
// lists and bounds all come from that index; what each kind means follows the SQL that
// charnel.query writes, three-valued: a card without a value is "unknown", which `-` keeps.
// tests/browser/test_field_search_browser.py holds the answers to the server's. A module:
// strict without saying so.

const FOLDER = "search/fields/";
const FEW_BLOCKS = 6; // a browser's requests at a time to one host: more cost a round trip
const TRUE = 1, FALSE = 0, UNKNOWN = -1;

export class QueryError extends Error {
  constructor(message, column, length = 1) {
    super(message);
    this.column = column;
    this.length = Math.max(length, 1);
  }
}

// a query this copy cannot answer, where the server could
export class Unsupported extends Error {}

const MEANINGS = ["text", "exact", "number", "list", "keyword"]; // the kinds read here

// --- what the language shares with Python's: lower case, space, closest names --------------

const asciiLower = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase()); // SQLite's nocase, LIKE
const isSpace = (ch) => /\s/u.test(ch);

function ratio(a, b) {
  // difflib.SequenceMatcher(None, a, b).ratio(), for names far shorter than its junk heuristic
  const where = new Map();
  b.forEach((ch, j) => (where.has(ch) ? where.get(ch).push(j) : where.set(ch, [j])));
  let matched = 0;
  const queue = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop();
    let besti = alo, bestj = blo, best = 0, lengths = new Map();
    for (let i = alo; i < ahi; i++) {
      const next = new Map();
      for (const j of where.get(a[i]) || []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (lengths.get(j - 1) || 0) + 1;
        next.set(j, k);
        if (k > best) [besti, bestj, best] = [i - k + 1, j - k + 1, k];
      }
      lengths = next;
    }
    if (best) {
      matched += best;
      if (alo < besti && blo < bestj) queue.push([alo, besti, blo, bestj]);
      if (besti + best < ahi && bestj + best < bhi) queue.push([besti + best, ahi, bestj + best, bhi]);
    }
  }
  const total = a.length + b.length;
  return total ? (2 * matched) / total : 1;
}

function closest(word, names, cutoff = 0.6) {
  // difflib.get_close_matches(word, names, n=1, cutoff): the best score, then the greatest name
  const w = Array.from(word);
  let found = null, score = -1;
  for (const name of names) {
    const r = ratio(Array.from(name), w);
    if (r >= cutoff && (r > score || (r === score && name > found))) [found, score] = [name, r];
  }
  return found;
}

// --- tokens --------------------------------------------------------------------------------

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// a field's name and its operator; the operators, longest first, are the index's
const fieldPattern = (operators) => new RegExp(`^([A-Za-z_]+)(${operators.map(escaped).join("|")})`);
const STOP = new Set([" ", "\t", "\r", "\n", "(", ")"]);

function tokenize(chars, field) {
  // `chars`: the query's code points, so columns count as Python's do
  const tokens = [];
  const n = chars.length;
  let i = 0;
  while (i < n) {
    const ch = chars[i];
    if (isSpace(ch)) {
      i += 1;
    } else if (ch === "(" || ch === ")") {
      tokens.push({ kind: ch, col: i + 1, text: ch });
      i += 1;
    } else if (ch === "-" && i + 1 < n && !isSpace(chars[i + 1]) && chars[i + 1] !== ")") {
      tokens.push({ kind: "-", col: i + 1, text: "-" });
      i += 1;
    } else {
      const start = i;
      const m = field.exec(chars.slice(i).join(""));
      if (m) {
        const after = i + Array.from(m[0]).length;
        const bare = after >= n || STOP.has(chars[after]);
        const [value, end] = bare ? ["", after] : readValue(chars, after, true);
        tokens.push({ kind: "term", col: start + 1, text: chars.slice(start, end).join(""),
          field: m[1], op: m[2], value, valueCol: after + 1 });
        i = end;
      } else {
        const [value, end] = readValue(chars, i, false);
        const word = chars.slice(start, end).join("");
        const lower = word.toLowerCase();
        if ((lower === "or" || lower === "and") && chars[start] !== '"') {
          tokens.push({ kind: lower, col: start + 1, text: word });
        } else {
          tokens.push({ kind: "word", col: start + 1, text: word, value, valueCol: start + 1 });
        }
        i = end;
      }
    }
  }
  return tokens;
}

function readValue(chars, i, fieldValue) {
  const n = chars.length;
  if (i < n && chars[i] === '"') {
    const close = chars.indexOf('"', i + 1);
    if (close < 0) throw new QueryError("unterminated quote", i + 1, n - i);
    return [chars.slice(i + 1, close).join(""), close + 1];
  }
  const start = i;
  let depth = 0;
  while (i < n) {
    const ch = chars[i];
    if (ch === "(" && fieldValue && i > start) depth += 1; // kw:ward(ember)
    else if (ch === ")" && depth) depth -= 1;
    else if (STOP.has(ch) || ch === '"') break;
    i += 1;
  }
  if (i === start) {
    throw new QueryError(`expected ${fieldValue ? "a value after the operator" : "a word"}`, i + 1);
  }
  return [chars.slice(start, i).join(""), i];
}

// --- tree ----------------------------------------------------------------------------------

export function parse(query, { bounds, operators }) {
  const chars = Array.from(query);
  if (chars.length > bounds.length) {
    throw new QueryError(`the query is ${chars.length} characters long; at most ${bounds.length} are read`,
      bounds.length + 1);
  }
  const tokens = tokenize(chars, fieldPattern(operators));
  if (!tokens.length) throw new QueryError("empty query", 1);
  const terms = tokens.filter((t) => t.kind === "term" || t.kind === "word");
  if (terms.length > bounds.terms) {
    const extra = terms[bounds.terms];
    throw new QueryError(`more than ${bounds.terms} search terms`, extra.col, Array.from(extra.text).length);
  }
  let pos = 0, depth = 0;
  const peek = () => tokens[pos];
  const disjunction = () => {
    const items = [conjunction()];
    while (peek() && peek().kind === "or") {
      pos += 1;
      items.push(conjunction());
    }
    return items.length === 1 ? items[0] : { or: items };
  };
  const conjunction = () => {
    const items = [unary()];
    while (peek() && peek().kind !== "or" && peek().kind !== ")") {
      if (peek().kind === "and") pos += 1;
      items.push(unary());
    }
    return items.length === 1 ? items[0] : { and: items };
  };
  const unary = () => {
    const tok = peek();
    if (!tok) throw new QueryError("the query ends where a search term was expected", chars.length + 1);
    if ((tok.kind === "-" || tok.kind === "(") && depth >= bounds.depth) {
      throw new QueryError(`more than ${bounds.depth} nested '(' and '-'`, tok.col);
    }
    if (tok.kind === "-") {
      pos += 1;
      depth += 1;
      const node = { not: unary() };
      depth -= 1;
      return node;
    }
    if (tok.kind === "(") {
      pos += 1;
      depth += 1;
      const node = disjunction();
      depth -= 1;
      if (!peek() || peek().kind !== ")") throw new QueryError("'(' is never closed", tok.col);
      pos += 1;
      return node;
    }
    if (tok.kind === "or" || tok.kind === "and") {
      throw new QueryError(`'${tok.text}' needs a search term before it`, tok.col, Array.from(tok.text).length);
    }
    if (tok.kind === ")") throw new QueryError("unmatched ')'", tok.col);
    pos += 1;
    const length = Array.from(tok.text).length;
    if (tok.kind === "word") {
      return { field: "name", op: ":", value: tok.value, col: tok.col, valueCol: tok.valueCol, length };
    }
    return { field: tok.field.toLowerCase(), op: tok.op, value: tok.value, col: tok.col,
      valueCol: tok.valueCol, length };
  };
  const node = disjunction();
  if (peek()) {
    const tok = peek();
    throw tok.kind === ")" ? new QueryError("unmatched ')'", tok.col)
      : new QueryError(`unexpected '${tok.text}'`, tok.col, Array.from(tok.text).length);
  }
  return node;
}

// --- meaning -------------------------------------------------------------------------------

function pyStrip(s) {
  return s.replace(/^\s+|\s+$/gu, "");
}

function sqlCompare(a, b) {
  // SQLite's order across kinds: numbers before text
  const ka = typeof a === "string" ? 1 : 0, kb = typeof b === "string" ? 1 : 0;
  if (ka !== kb) return ka - kb;
  return a < b ? -1 : a > b ? 1 : 0;
}

const COMPARE = {
  ":": (c) => c === 0, "=": (c) => c === 0, "!=": (c) => c !== 0,
  "<": (c) => c < 0, "<=": (c) => c <= 0, ">": (c) => c > 0, ">=": (c) => c >= 0,
};

const notKnown = (v) => (v === TRUE ? FALSE : TRUE); // SQL's `not coalesce(x, 0)`

class Plan {
  // a query checked against the fields, as charnel.query's compiler checks it (in the same
  // order, so the same first mistake is reported), and the files it needs
  constructor(index) {
    this.index = index;
    this.files = new Set(); // what the query reads, fetched before it runs
    this.later = []; // what it reads that is known once other files are fetched
  }

  node(n) {
    if (n.and) {
      const parts = n.and.map((i) => this.node(i));
      return (card) => {
        let out = TRUE;
        for (const p of parts) {
          const v = p(card);
          if (v === FALSE) return FALSE;
          if (v === UNKNOWN) out = UNKNOWN;
        }
        return out;
      };
    }
    if (n.or) {
      const parts = n.or.map((i) => this.node(i));
      return (card) => {
        let out = FALSE;
        for (const p of parts) {
          const v = p(card);
          if (v === TRUE) return TRUE;
          if (v === UNKNOWN) out = UNKNOWN;
        }
        return out;
      };
    }
    if (n.not) {
      const inner = this.node(n.not);
      return (card) => notKnown(inner(card));
    }
    return this.condition(n);
  }

  field(name) {
    const at = Object.prototype.hasOwnProperty.call(this.index.names, name) ? this.index.names[name] : null;
    return at === null ? null : this.index.fields[at];
  }

  column(file) {
    this.files.add(file);
    return (card) => this.index.value(file, card);
  }

  condition(c) {
    const f = this.field(c.field);
    if (!f) {
      const near = closest(c.field, Object.keys(this.index.names));
      throw new QueryError(`unknown field '${c.field}'${near ? `; did you mean '${near}'?` : ""}`,
        c.col, Array.from(c.field).length);
    }
    if (!c.value && c.length === Array.from(c.field).length + c.op.length) {
      throw new QueryError("expected a value after the operator", c.valueCol);
    }
    if (!MEANINGS.includes(f.kind)) {
      // a kind of field the server knows and this script does not: say so, never guess
      throw new Unsupported(`'${c.field}' is a ${f.kind} field, which only the server can search`);
    }
    if (f.kind === "number") return this.number(c, f);
    if (![":", "=", "!="].includes(c.op)) {
      throw new QueryError(`'${c.field}' takes ':', '=' or '!=', not '${c.op}'`,
        c.col + Array.from(c.field).length, c.op.length);
    }
    const value = pyStrip(c.value);
    if (!value) throw new QueryError("empty value", c.valueCol);
    if (f.choices) this.checkChoice(c, f, value);
    const test = this[f.kind](c, f, value);
    return c.op === "!=" ? (card) => notKnown(test(card)) : test;
  }

  checkChoice(c, f, value) {
    const known = f.choices.map((v) => v.toLowerCase());
    if (f.kind === "keyword") return this.checkKeyword(c, known, value);
    const lower = value.toLowerCase();
    const wrong = f.kind === "exact" ? (known.includes(lower) ? [] : [lower])
      : lower.split(/\s+/u).filter((w) => w && !known.some((v) => v.includes(w)));
    if (!wrong.length) return undefined;
    const words = f.kind === "exact" ? known
      : [...new Set(known.flatMap((v) => v.split(/\s+/u).filter(Boolean)))].sort(byCodePoint);
    const near = closest(wrong[0], words, 0.5);
    const hint = near ? `did you mean '${near}'?` : `one of: ${known.join(", ")}`;
    throw new QueryError(`no card has '${wrong[0]}' in '${c.field}'; ${hint}`, c.valueCol,
      Array.from(c.value).length);
  }

  checkKeyword(c, known, value) {
    const squash = (s) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
    const squashed = squash(value);
    if (known.some((k) => squashed.startsWith(squash(k)))) return;
    const near = closest(slugOf(value), known, 0.5);
    const hint = near ? `did you mean '${near}'?` : `one of: ${known.join(", ")}`;
    throw new QueryError(`no keyword is called '${value}'; ${hint}`, c.valueCol, Array.from(c.value).length);
  }

  text(c, f, value) {
    const wanted = asciiLower(value);
    const equal = c.op === "=" || c.op === "!=";
    if (f.blocks) return this.blocked(f, wanted, equal ? equalNocase : contains);
    const get = this.column(f.file);
    return (card) => (equal ? equalNocase : contains)(get(card), wanted);
  }

  blocked(f, wanted, test) {
    // free text in blocks: only the blocks holding every three letters of the value can
    // hold a match; a card elsewhere is no match, or unknown where it has no value. A value
    // of fewer letters, or in many blocks, reads the whole column: one request, not many.
    const b = f.blocks;
    const nulls = new Set(b.nulls);
    const grams = trigrams(wanted);
    const lists = [...new Set(grams.map((g) => `${b.file}-grams-${gramFile(g, b.grams)}.json`))];
    let chosen = null, whole = !grams.length;
    if (whole) this.files.add(f.file);
    else this.later.push(async () => {
      await this.index.load(lists);
      let blocks = [...Array(b.count).keys()];
      for (const g of grams) {
        const holding = new Set(this.index.file(`${b.file}-grams-${gramFile(g, b.grams)}.json`)[g] || []);
        blocks = blocks.filter((block) => holding.has(block));
      }
      if (blocks.length > FEW_BLOCKS) {
        await this.index.load([f.file]);
        whole = true;
        return;
      }
      chosen = new Set(blocks);
      await this.index.load(blocks.map((block) => `${b.file}-${block}.json`));
    });
    return (card) => {
      if (whole) return test(this.index.value(f.file, card), wanted);
      const block = Math.floor(card / b.span);
      if (!chosen.has(block)) return nulls.has(card) ? UNKNOWN : FALSE;
      return test(this.index.file(`${b.file}-${block}.json`)[card % b.span], wanted);
    };
  }

  exact(c, f, value) {
    const get = this.column(f.file);
    const wanted = asciiLower(value);
    return (card) => equalNocase(get(card), wanted);
  }

  list(c, f, value) {
    const get = this.column(f.file);
    const wanted = `,${asciiLower(value)},`;
    return (card) => {
      const v = get(card);
      return v === null ? UNKNOWN : (asciiLower(`,${v},`).includes(wanted) ? TRUE : FALSE);
    };
  }

  keyword(c, f, value) {
    this.files.add(f.file);
    const slug = slugOf(value);
    const printed = value.toLowerCase().replace(/\s+/gu, "");
    return (card) => {
      const { pairs, cards } = this.index.file(f.file);
      return cards[card].some((p) => pairs[p][0] === slug || pairs[p][1] === printed) ? TRUE : FALSE;
    };
  }

  number(c, f) {
    const value = pyStrip(c.value);
    const compare = COMPARE[c.op];
    const get = this.column(f.file);
    if (/^-?\d+$/.test(value)) {
      if (value.replace(/^-/, "").length > this.index.bounds.digits) {
        throw new QueryError(`'${c.field}' takes numbers of at most ${this.index.bounds.digits} digits`,
          c.valueCol, Array.from(c.value).length);
      }
      const wanted = Number(value);
      return (card) => {
        const v = get(card);
        return v === null ? UNKNOWN : (compare(sqlCompare(v, wanted)) ? TRUE : FALSE);
      };
    }
    const other = this.field(value.toLowerCase());
    if (other && other.kind === "number") { // atk>def: one field against another
      const getOther = this.column(other.file);
      return (card) => {
        const v = get(card), w = getOther(card);
        return v === null || w === null ? UNKNOWN : (compare(sqlCompare(v, w)) ? TRUE : FALSE);
      };
    }
    if (f.text_file && [":", "=", "!="].includes(c.op) && value) {
      const getText = this.column(f.text_file);
      const wanted = asciiLower(value);
      const test = (card) => contains(getText(card), wanted);
      return c.op === "!=" ? (card) => notKnown(test(card)) : test;
    }
    throw new QueryError(`'${c.field}' needs a whole number or a number field, not '${value}'`,
      c.valueCol, Array.from(c.value).length || 1);
  }
}

const byCodePoint = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function trigrams(text) {
  const chars = Array.from(text);
  const found = new Set();
  for (let i = 0; i + 3 <= chars.length; i++) found.add(chars.slice(i, i + 3).join(""));
  return [...found];
}

function gramFile(gram, files) {
  // as charnel.site.field_index.gram_file: the sum of the code points
  return Array.from(gram).reduce((sum, ch) => sum + ch.codePointAt(0), 0) % files;
}

function slugOf(value) {
  return value.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

function equalNocase(v, wanted) {
  return v === null ? UNKNOWN : (asciiLower(String(v)) === wanted ? TRUE : FALSE);
}

function contains(v, wanted) {
  return v === null ? UNKNOWN : (asciiLower(String(v)).includes(wanted) ? TRUE : FALSE);
}

// --- the index -----------------------------------------------------------------------------

class Index {
  constructor(base, manifest) {
    this.base = base;
    Object.assign(this, manifest);
    this.loaded = new Map(); // file -> its fetch
    this.ready = new Map(); // file -> its contents
  }

  async load(files) {
    await Promise.all([...files].map((file) => {
      if (!this.loaded.has(file)) this.loaded.set(file, fetchJson(this.base + file));
      return this.loaded.get(file);
    }));
    for (const file of files) this.ready.set(file, await this.loaded.get(file));
  }

  file(name) {
    return this.ready.get(name);
  }

  value(file, card) {
    const column = this.ready.get(file);
    return column.codes ? column.values[column.codes[card]] : column.values[card];
  }

  async rows(cards) {
    // the result rows of `cards` (positions), each as an object of the server's columns
    const shards = [...new Set(cards.map((card) => Math.floor(card / this.shard)))];
    const got = new Map(await Promise.all(shards.map(async (s) => {
      const file = `cards-${s}.json`;
      if (!this.loaded.has(file)) this.loaded.set(file, fetchJson(this.base + file));
      return [s, await this.loaded.get(file)];
    })));
    return cards.map((card) => {
      const row = got.get(Math.floor(card / this.shard))[card % this.shard];
      return Object.fromEntries(this.columns.map((name, i) => [name, row[i]]));
    });
  }
}

async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

const indexes = new Map();

export function open(home) {
  // the game's index, its manifest fetched once per page
  if (!indexes.has(home)) {
    const base = `${home}${FOLDER}`;
    const made = fetchJson(`${base}manifest.json`).then((manifest) => new Index(base, manifest));
    made.catch(() => indexes.delete(home)); // a failed fetch is tried again at the next query
    indexes.set(home, made);
  }
  return indexes.get(home);
}

export async function find(home, query) {
  // {total, cards (positions, in result order), index}, {error: {message, column, length}},
  // or {unsupported: why} for a query only the server can answer
  const index = await open(home);
  let plan, test;
  try {
    plan = new Plan(index);
    test = plan.node(parse(query, index));
  } catch (e) {
    if (e instanceof QueryError) return { error: { message: e.message, column: e.column, length: e.length } };
    if (e instanceof Unsupported) return { unsupported: e.message };
    throw e;
  }
  await Promise.all([index.load(plan.files), ...plan.later.map((step) => step())]);
  const cards = [];
  for (let card = 0; card < index.cards; card++) if (test(card) === TRUE) cards.push(card);
  return { total: cards.length, cards, index };
}
