// Progress and drafts in localStorage, under one versioned key.
//
// {"version": 1, "lessons": {"<id>": {"checkpoints": {"<cp>": {"passedAt", "lastPassingCode", "solutionRevealed",
//                                                                 "triedAt"?, "hints"?, "solutionFirst"?}},
//                                       "drafts": {"<cp>" | "example:<cp>" | "carried:<cp>:<earlier cp>" | "aside:<cp>":
//                                                  "source"}}},
//  "last"?: {"lesson", "lang", "checkpoint", "at"}}
// `triedAt` (first Check that did not pass), `hints` (how many hints were revealed), `solutionFirst` (the first pass
// came after the reference solution was shown) and `last` (where the learner worked last: the home page offers to
// continue there) are optional: written only once they have a value, so documents from before they existed stay
// valid and unchanged.
//
// Every write reads what is stored first and merges, and a `storage` event from another tab merges too, so a pass
// recorded in one tab is never lost by another. Drafts: what is stored wins, except for the drafts this tab wrote
// itself, so a tab never writes back a stale copy of a draft another tab changed; a draft another tab changed is
// reported (`onForeignDraft`), and the page lets the learner choose between the two versions. Broken data is set
// aside, never thrown away; a newer schema is left untouched; a blocked or full storage keeps everything in memory
// and says so.
//
// The last verdict of each checkpoint is kept apart, under its own key (`VerdictStore`): it is derived data, not
// part of an export.

/** The localStorage key of the progress document. */
export const KEY = "werkbank:progress";
/** The schema version this code writes. */
export const VERSION = 1;

/** Upgrades from older documents, keyed by the version they upgrade from. */
const MIGRATIONS = {
  // version 0: the pre-release shape {"<lesson>": {"<cp>": true}} (no version field)
  0: (old) => {
    const lessons = {};
    for (const [id, cps] of Object.entries(old || {})) {
      if (!cps || typeof cps !== "object") continue;
      const checkpoints = {};
      for (const [cp, done] of Object.entries(cps)) {
        if (done)
          checkpoints[cp] = { passedAt: new Date(0).toISOString(), lastPassingCode: "", solutionRevealed: false };
      }
      lessons[id] = { checkpoints, drafts: {} };
    }
    return { version: 1, lessons };
  },
};

/** An empty progress document. */
export function emptyProgress() {
  return { version: VERSION, lessons: {} };
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
/** What stored progress and verdicts take for a lesson id (every id werkbank/lessons.py allows has this shape). */
const LESSON_ID = /^[a-z0-9][a-z0-9-]*$/;

/** The pre-release shape, {"<lesson>": {"<cp>": true}}: no version and no lessons field, only records of booleans. */
function isPreRelease(doc) {
  if (!isObject(doc) || "version" in doc || "lessons" in doc) return false;
  return Object.values(doc).every((cps) => isObject(cps) && Object.values(cps).every((v) => typeof v === "boolean"));
}

/**
 * Check and normalise a version-1 document; throws Error with a reason when it is not one.
 * Unknown keys are dropped, missing ones filled in. With `dropped` (an array), a damaged lesson, checkpoint record or
 * draft is left out instead, its reason pushed there: one bad field does not cost the rest of the learner's progress.
 */
export function validateProgress(doc, dropped = null) {
  if (!isObject(doc)) throw new Error("not a JSON object");
  if (doc.version !== VERSION) throw new Error(`version ${JSON.stringify(doc.version)} is not ${VERSION}`);
  if (!isObject(doc.lessons)) throw new Error("'lessons' must be an object");
  const bad = (reason) => {
    if (!dropped) throw new Error(reason);
    dropped.push(reason);
  };
  const out = emptyProgress();
  for (const [id, lesson] of Object.entries(doc.lessons)) {
    if (!LESSON_ID.test(id)) {
      bad(`bad lesson id ${JSON.stringify(id)}`);
      continue;
    }
    if (!isObject(lesson)) {
      bad(`lesson ${id} must be an object`);
      continue;
    }
    const entry = { checkpoints: {}, drafts: {} };
    // a record's parts must be objects: Object.entries("abc") would read a text's letters as drafts of "0", "1", ...
    const part = (name) => {
      if (lesson[name] == null || isObject(lesson[name])) return lesson[name] || {};
      bad(`lesson ${id} ${name} must be an object`);
      return {};
    };
    for (const [cp, rec] of Object.entries(part("checkpoints"))) {
      if (!isObject(rec)) {
        bad(`lesson ${id} checkpoint ${cp} must be an object`);
        continue;
      }
      const passedAt =
        typeof rec.passedAt === "string" && !Number.isNaN(Date.parse(rec.passedAt)) ? rec.passedAt : null;
      if (rec.passedAt != null && passedAt === null) {
        bad(`lesson ${id} checkpoint ${cp}: bad passedAt`);
        continue;
      }
      entry.checkpoints[cp] = {
        passedAt,
        lastPassingCode: typeof rec.lastPassingCode === "string" ? rec.lastPassingCode : "",
        solutionRevealed: rec.solutionRevealed === true,
      };
      if (typeof rec.triedAt === "string" && !Number.isNaN(Date.parse(rec.triedAt)))
        entry.checkpoints[cp].triedAt = rec.triedAt;
      if (Number.isInteger(rec.hints) && rec.hints > 0) entry.checkpoints[cp].hints = rec.hints;
      if (rec.solutionFirst === true && passedAt) entry.checkpoints[cp].solutionFirst = true;
    }
    for (const [cp, draft] of Object.entries(part("drafts"))) {
      if (typeof draft !== "string") {
        bad(`lesson ${id} draft ${cp} must be text`);
        continue;
      }
      entry.drafts[cp] = draft;
    }
    out.lessons[id] = entry;
  }
  const last = validLast(doc.last);
  if (last) out.last = last;
  return out;
}

/** `last` ({lesson, lang, checkpoint, at}) when well-formed, else null (dropped, never an error). */
function validLast(last) {
  if (!isObject(last)) return null;
  const { lesson, lang, checkpoint, at } = last;
  const text = (v) => typeof v === "string" && v.length > 0 && v.length <= 64;
  if (!text(lesson) || !LESSON_ID.test(lesson) || !text(lang) || !/^[a-z]{2}$/.test(lang)) return null;
  if (!text(checkpoint) || typeof at !== "string" || Number.isNaN(Date.parse(at))) return null;
  return { lesson, lang, checkpoint, at };
}

/**
 * Bring an older document up to VERSION; returns null for a newer (unknown) version. With `dropped`, damaged parts
 * are left out rather than refused (see validateProgress).
 */
export function migrate(doc, dropped = null) {
  let current = doc;
  let version;
  if (isObject(doc) && Number.isInteger(doc.version) && doc.version >= 1) version = doc.version;
  else if (isPreRelease(doc)) version = 0;
  else if (isObject(doc) && isObject(doc.lessons) && dropped) {
    // a version-1 document whose version field is damaged or missing: what it holds is read as version 1 (and the
    // whole set aside), not taken for the pre-release shape, which would make a lesson of "lessons" and lose the rest
    dropped.push(`version ${JSON.stringify(doc.version)} is not ${VERSION}`);
    current = { ...doc, version: VERSION };
    version = VERSION;
  } else if (isObject(doc) && isObject(doc.lessons)) {
    throw new Error(`version ${JSON.stringify(doc.version)} is not ${VERSION}`);
  } else {
    throw new Error("not a progress document");
  }
  if (version > VERSION) return null;
  while (version < VERSION) {
    const step = MIGRATIONS[version];
    if (!step) throw new Error(`no migration from version ${version}`);
    current = step(current);
    version = current.version;
  }
  return validateProgress(current, dropped);
}

function earlier(a, b) {
  if (!a) return b || null;
  if (!b) return a;
  return Date.parse(a) <= Date.parse(b) ? a : b;
}

/** Why an exported progress file cannot be imported: `code` is "not_json", "newer" or "not_progress". */
export class ImportError extends Error {
  constructor(code, detail) {
    super(detail);
    this.code = code;
  }
}

/** The progress document in an exported file's text, validated and migrated; throws ImportError. */
export function readImport(text) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ImportError("not_json", "not JSON");
  }
  let migrated;
  try {
    migrated = migrate(parsed);
  } catch (error) {
    throw new ImportError("not_progress", error.message);
  }
  if (migrated === null) throw new ImportError("newer", "made by a newer version");
  return migrated;
}

/**
 * Merge two valid documents. A pass is kept when either side has it (the earliest time wins, the code of the
 * later pass is kept); a revealed solution stays revealed; drafts from `preferred` win over `other`.
 */
export function mergeProgress(preferred, other) {
  const out = emptyProgress();
  const ids = new Set([...Object.keys(other.lessons), ...Object.keys(preferred.lessons)]);
  for (const id of ids) {
    const a = preferred.lessons[id] || { checkpoints: {}, drafts: {} };
    const b = other.lessons[id] || { checkpoints: {}, drafts: {} };
    const checkpoints = {};
    for (const cp of new Set([...Object.keys(a.checkpoints), ...Object.keys(b.checkpoints)])) {
      const x = a.checkpoints[cp] || {};
      const y = b.checkpoints[cp] || {};
      const laterCode =
        x.passedAt && y.passedAt
          ? Date.parse(x.passedAt) >= Date.parse(y.passedAt)
            ? x.lastPassingCode
            : y.lastPassingCode
          : x.passedAt
            ? x.lastPassingCode
            : y.lastPassingCode;
      checkpoints[cp] = {
        passedAt: earlier(x.passedAt, y.passedAt),
        lastPassingCode: laterCode || x.lastPassingCode || y.lastPassingCode || "",
        solutionRevealed: Boolean(x.solutionRevealed || y.solutionRevealed),
      };
      const triedAt = earlier(x.triedAt, y.triedAt);
      if (triedAt) checkpoints[cp].triedAt = triedAt;
      const hints = Math.max(x.hints || 0, y.hints || 0);
      if (hints > 0) checkpoints[cp].hints = hints;
      // how the first pass came about: the side whose pass is the earliest says
      const first = checkpoints[cp].passedAt;
      if (first && (first === x.passedAt ? x.solutionFirst : y.solutionFirst)) checkpoints[cp].solutionFirst = true;
    }
    out.lessons[id] = { checkpoints, drafts: { ...b.drafts, ...a.drafts } };
  }
  const lasts = [preferred.last, other.last].filter(Boolean).sort((p, q) => Date.parse(q.at) - Date.parse(p.at));
  if (lasts.length) out.last = lasts[0];
  return out;
}

/**
 * The learner's progress: an in-memory document kept in step with localStorage.
 * `warnings` lists catalog keys to show ("storage_warning_corrupt", "storage_warning_partly",
 * "storage_warning_damaged_kept", "storage_warning_newer", "storage_warning_memory"); listeners registered with
 * onChange() run after every change, local or from another tab.
 */
export class ProgressStore {
  /** Load the stored document (or start clean); `storage` defaults to window.localStorage. */
  constructor(storage) {
    this.warnings = [];
    this.listeners = new Set();
    this.readOnly = false; // a newer schema is stored: never overwrite it
    this.memoryOnly = false;
    this.touched = new Set(); // "<lesson>\u0000<draft key>" of the drafts this tab saved: its versions win on a write
    this.draftListeners = new Set();
    this.foreign = []; // drafts other tabs changed, not yet reported
    this.base = {}; // the drafts as last read from or written to the storage
    try {
      this.storage = storage === undefined ? window.localStorage : storage;
    } catch {
      this.storage = null;
    }
    if (!this.storage) this._memory();
    this.doc = this._read() || emptyProgress();
    this._rebase();
  }

  _warn(key) {
    if (!this.warnings.includes(key)) this.warnings.push(key);
  }

  _memory() {
    const first = !this.memoryOnly;
    this.memoryOnly = true;
    this._warn("storage_warning_memory");
    // a write refused as the learner types (a draft) changes nothing the page shows: tell the listeners now, so the
    // warning is there at once, not only after the next change that repaints (a Check)
    if (first && this.listeners.size) queueMicrotask(() => this._changed());
  }

  /** Read and migrate what is stored; null when nothing usable is there. Sets warnings as a side effect. */
  _read() {
    if (!this.storage || this.readOnly) return null;
    let raw;
    try {
      raw = this.storage.getItem(KEY);
    } catch {
      this._memory();
      return null;
    }
    if (raw === null) return null;
    let parsed;
    const dropped = [];
    try {
      parsed = JSON.parse(raw);
      const migrated = migrate(parsed, dropped);
      if (migrated === null) {
        this.readOnly = true;
        this._warn("storage_warning_newer");
        return null;
      }
      if (dropped.length) this._setAside(raw, migrated);
      return migrated;
    } catch {
      this._setAside(raw, null);
      return null;
    }
  }

  /**
   * Keep a copy of damaged stored progress under its own key (`werkbank:progress:corrupt:<time>`, for a learner or
   * a helper to recover by hand), then store what could be read of it (`salvaged`), or nothing. Where the copy does
   * not fit, the damaged original stays as it is (nothing is lost) and this page keeps its progress in memory;
   * "Reset all progress" clears it.
   */
  _setAside(raw, salvaged) {
    try {
      this.storage.setItem(`${KEY}:corrupt:${new Date().toISOString()}`, raw);
    } catch {
      this._warn("storage_warning_damaged_kept");
      this.memoryOnly = true;
      return;
    }
    this._warn(salvaged ? "storage_warning_partly" : "storage_warning_corrupt");
    try {
      if (salvaged) this.storage.setItem(KEY, JSON.stringify(salvaged));
      else this.storage.removeItem(KEY);
    } catch {
      this._memory();
    }
  }

  _write() {
    if (this.readOnly || this.memoryOnly || !this.storage) return;
    const stored = this._read();
    if (this.readOnly) return;
    if (stored) this.doc = this._merged(stored);
    try {
      this.storage.setItem(KEY, JSON.stringify(this.doc));
      this._rebase();
    } catch {
      this._memory(); // QuotaExceededError, SecurityError: keep going in memory
    }
    if (this.foreign.length) queueMicrotask(() => this._report());
  }

  _changed() {
    for (const fn of this.listeners) fn(this);
  }

  /** Call `fn(store)` after every change; returns a function that unsubscribes. */
  onChange(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * This document merged with `stored`: passes and the rest as mergeProgress does; drafts as stored, except the ones
   * this tab saved itself since it last synced. A draft whose stored text changed since this tab last synced
   * (`base`) was changed by another tab: its text wins, and unless this tab holds the same, the change is queued for
   * the `onForeignDraft` listeners (`_report`). So a tab never writes back a stale copy of another tab's draft.
   */
  _merged(stored) {
    const merged = mergeProgress(this.doc, stored);
    for (const [id, lesson] of Object.entries(merged.lessons)) {
      const theirs = (stored.lessons[id] || {}).drafts || {};
      const base = this.base[id] || {};
      const mine = (this.doc.lessons[id] || {}).drafts || {};
      for (const [key, text] of Object.entries(theirs)) {
        const tag = `${id}\u0000${key}`;
        if (base[key] !== text) {
          // reported also where this tab saved nothing yet: its editor may still show what it loaded (a starter)
          if (mine[key] !== text) this.foreign.push({ lesson: id, key, text });
          this.touched.delete(tag);
          lesson.drafts[key] = text;
        } else if (!this.touched.has(tag)) {
          lesson.drafts[key] = text;
        }
      }
    }
    return merged;
  }

  /** Remember the drafts as they are now stored: what another tab's later change is told apart from. */
  _rebase() {
    this.base = {};
    for (const [id, lesson] of Object.entries(this.doc.lessons)) this.base[id] = { ...lesson.drafts };
  }

  /** Tell the `onForeignDraft` listeners about the drafts other tabs changed. */
  _report() {
    const changes = this.foreign;
    this.foreign = [];
    for (const change of changes) for (const fn of this.draftListeners) fn(change);
  }

  /**
   * Call `fn({lesson, key, text})` when another tab changed a draft (a `storage` event): `text` is its version,
   * which is now the stored one; the page compares it with its editor. Returns a function that unsubscribes.
   */
  onForeignDraft(fn) {
    this.draftListeners.add(fn);
    return () => this.draftListeners.delete(fn);
  }

  /** Merge in what another tab wrote (call from a `storage` event). */
  syncFromStorage() {
    let raw = null;
    try {
      raw = this.storage ? this.storage.getItem(KEY) : null;
    } catch {
      return;
    }
    if (raw === null && !this.readOnly && !this.memoryOnly) {
      this.doc = emptyProgress(); // another tab reset everything
      this._changed();
      return;
    }
    const stored = this._read();
    if (stored) {
      this.doc = this._merged(stored);
      this._rebase();
      this._changed();
      this._report();
    }
  }

  _lesson(id) {
    if (!this.doc.lessons[id]) this.doc.lessons[id] = { checkpoints: {}, drafts: {} };
    return this.doc.lessons[id];
  }

  _record(id, cp) {
    const lesson = this._lesson(id);
    if (!lesson.checkpoints[cp])
      lesson.checkpoints[cp] = { passedAt: null, lastPassingCode: "", solutionRevealed: false };
    return lesson.checkpoints[cp];
  }

  /** The record of one checkpoint, or null. */
  checkpoint(id, cp) {
    const lesson = this.doc.lessons[id];
    return (lesson && lesson.checkpoints[cp]) || null;
  }

  /** True when the checkpoint was passed at some point. */
  isPassed(id, cp) {
    const rec = this.checkpoint(id, cp);
    return Boolean(rec && rec.passedAt);
  }

  /** How many of `checkpointIds` are passed. */
  passedCount(id, checkpointIds) {
    return checkpointIds.filter((cp) => this.isPassed(id, cp)).length;
  }

  /** Record a pass with the code that passed (the first pass time is kept; a first pass after the solution was
   * shown is marked `solutionFirst`). */
  markPassed(id, cp, code) {
    const rec = this._record(id, cp);
    if (!rec.passedAt && rec.solutionRevealed) rec.solutionFirst = true;
    rec.passedAt = rec.passedAt || new Date().toISOString();
    rec.lastPassingCode = code;
    this._write();
    this._changed();
  }

  /** Record a Check that did not pass (the first time is kept): the stepper shows the checkpoint as tried. */
  markTried(id, cp) {
    const rec = this._record(id, cp);
    if (rec.triedAt) return;
    rec.triedAt = new Date().toISOString();
    this._write();
    this._changed();
  }

  /** How many hints of a checkpoint were revealed. */
  hintsShown(id, cp) {
    const rec = this.checkpoint(id, cp);
    return (rec && rec.hints) || 0;
  }

  /** Remember that `count` hints of a checkpoint are revealed (never fewer than before). */
  markHintsShown(id, cp, count) {
    const rec = this._record(id, cp);
    if ((rec.hints || 0) >= count) return;
    rec.hints = count;
    this._write();
  }

  /** Remember that the reference solution was shown. */
  markSolutionRevealed(id, cp) {
    this._record(id, cp).solutionRevealed = true;
    this._write();
    this._changed();
  }

  /** The saved draft, or null. */
  draft(id, cp) {
    const lesson = this.doc.lessons[id];
    return lesson && typeof lesson.drafts[cp] === "string" ? lesson.drafts[cp] : null;
  }

  /** Save a draft now (callers debounce). */
  saveDraft(id, cp, code) {
    this._lesson(id).drafts[cp] = code;
    this.touched.add(`${id}\u0000${cp}`);
    this._write();
  }

  /** True when the first pass of a checkpoint came after its reference solution was shown. */
  passedWithSolution(id, cp) {
    const rec = this.checkpoint(id, cp);
    return Boolean(rec && rec.passedAt && rec.solutionFirst);
  }

  /** Where the learner worked last ({lesson, lang, checkpoint, at}), or null. */
  last() {
    return this.doc.last || null;
  }

  /** Remember where the learner works now (the home page offers to continue there). */
  markLast(lesson, lang, checkpoint) {
    const last = this.doc.last;
    if (last && last.lesson === lesson && last.lang === lang && last.checkpoint === String(checkpoint)) return;
    this.doc.last = { lesson, lang, checkpoint: String(checkpoint), at: new Date().toISOString() };
    this._write();
  }

  /** The whole document as pretty JSON, for export. */
  exportJson() {
    return JSON.stringify(this.doc, null, 2);
  }

  /**
   * Validate (and migrate) an exported document and merge it in (see importDoc). Throws ImportError (its `code`:
   * "not_json", "newer" or "not_progress", its message the detail) when the file cannot be used; nothing changes then.
   */
  importJson(text, options = {}) {
    this.importDoc(readImport(text), options);
  }

  /**
   * Merge in an exported document as readImport read it: passes from both, drafts from this device where both hold
   * one for an editor, or from the file with `preferFile`.
   */
  importDoc(imported, { preferFile = false } = {}) {
    this.doc = preferFile ? mergeProgress(imported, this.doc) : mergeProgress(this.doc, imported);
    // the drafts taken from the file are this tab's to write, as if typed here (see _merged)
    for (const [id, lesson] of Object.entries(imported.lessons))
      for (const [key, draft] of Object.entries(lesson.drafts))
        if (this.doc.lessons[id].drafts[key] === draft) this.touched.add(`${id}\u0000${key}`);
    this._write();
    this._changed();
  }

  /** How many editors hold a draft here and another one in `imported` (an exported document as readImport read it). */
  draftConflicts(imported) {
    let count = 0;
    for (const [id, lesson] of Object.entries(imported.lessons)) {
      const mine = (this.doc.lessons[id] || {}).drafts || {};
      for (const [key, draft] of Object.entries(lesson.drafts)) if (key in mine && mine[key] !== draft) count += 1;
    }
    return count;
  }

  /**
   * Forget all progress and drafts (the caller confirms first). Stored progress goes too when this page could not
   * use it (damaged, or from a newer version), so that saving works again afterwards.
   */
  resetAll() {
    this.doc = emptyProgress();
    if (this.storage) {
      try {
        this.storage.removeItem(KEY);
        this.readOnly = false;
        this.memoryOnly = false;
        this.warnings = [];
      } catch {
        this._memory();
      }
    }
    this._changed();
  }
}

/** The localStorage key of the last verdicts. */
export const VERDICTS_KEY = "werkbank:verdicts";
/** The most a kept verdict may take (characters of JSON): the parts that can be left out go first. */
const VERDICT_LIMIT = 60_000;

/**
 * A verdict as it is kept: without its output (the page shows it only after a Check), with the number of its failing
 * cases (`failed_count`) instead of all their ids (thousands when every case fails), and smaller than VERDICT_LIMIT
 * (first without the failing cases' sources, marked `kept_without_sources`, then with only the first 20 of them
 * listed, then without their list, then without the plot); null when even that is too large.
 */
export function compactVerdict(verdict) {
  if (!isObject(verdict)) return null;
  const { stdout, stderr, failed_cases, ...rest } = verdict; // eslint-disable-line no-unused-vars
  if (Array.isArray(failed_cases)) rest.failed_count = failed_cases.length;
  const steps = [
    (v) => v,
    (v) => ({
      ...v,
      failing: Array.isArray(v.failing) ? v.failing.map((f) => ({ ...f, call_source: null })) : v.failing,
      kept_without_sources: true, // the page says why a listed case has no Try or Trace (verdict.js noSourceNote)
    }),
    // fewer of the failing cases listed (the page says "the first N of M")
    (v) => ({ ...v, failing: Array.isArray(v.failing) ? v.failing.slice(0, 20) : v.failing }),
    (v) => {
      const { failing, ...r } = v;
      return r;
    }, // eslint-disable-line no-unused-vars
    (v) => {
      const { plot, ...r } = v;
      return r;
    }, // eslint-disable-line no-unused-vars
  ];
  let out = rest;
  for (const step of steps) {
    out = step(out);
    if (JSON.stringify(out).length <= VERDICT_LIMIT) return out;
  }
  return null;
}

/**
 * The last verdict of each checkpoint, so that it survives a reload: {"<lesson>": {"<cp>": {verdict, timeLimit,
 * code, at}}} under VERDICTS_KEY. `code` is the learner's own code that was checked (the page says when the editor
 * holds other code now). Anything unreadable is ignored; a full or blocked storage keeps them in memory only.
 */
export class VerdictStore {
  constructor(storage) {
    try {
      this.storage = storage === undefined ? window.localStorage : storage;
    } catch {
      this.storage = null;
    }
    this.memory = {};
  }

  _all() {
    try {
      const raw = this.storage ? this.storage.getItem(VERDICTS_KEY) : null;
      const doc = raw ? JSON.parse(raw) : null;
      return isObject(doc) ? doc : this.memory;
    } catch {
      return this.memory;
    }
  }

  /** The kept verdict of a checkpoint ({verdict, timeLimit, code, at}), or null. */
  get(lesson, cp) {
    const entry = (this._all()[lesson] || {})[cp];
    return isObject(entry) && isObject(entry.verdict) && typeof entry.at === "string" ? entry : null;
  }

  /** Keep `verdict` as the last of a checkpoint (checked `code`). */
  put(lesson, cp, verdict, { timeLimit = null, code = "" } = {}) {
    const kept = compactVerdict(verdict);
    if (!kept) return;
    const all = this._all();
    const lessonEntry = isObject(all[lesson]) ? all[lesson] : {};
    lessonEntry[cp] = { verdict: kept, timeLimit, code, at: new Date().toISOString() };
    all[lesson] = lessonEntry;
    this._save(all);
  }

  /** Every kept verdict, as [lesson, checkpoint, entry] (entries as get() returns them). */
  entries() {
    const out = [];
    for (const [lesson, cps] of Object.entries(this._all())) {
      if (!isObject(cps)) continue;
      for (const cp of Object.keys(cps)) {
        const entry = this.get(lesson, cp);
        if (entry) out.push([lesson, cp, entry]);
      }
    }
    return out;
  }

  /** Forget the kept verdict of one checkpoint (one the page could not show). */
  forget(lesson, cp) {
    const all = this._all();
    if (!isObject(all[lesson]) || !(cp in all[lesson])) return;
    delete all[lesson][cp];
    this._save(all);
  }

  _save(all) {
    this.memory = all;
    try {
      if (this.storage) this.storage.setItem(VERDICTS_KEY, JSON.stringify(all));
    } catch {
      /* full or blocked: kept in memory for this page */
    }
  }

  /** Forget every kept verdict (with "Reset all progress"). */
  clear() {
    this.memory = {};
    try {
      if (this.storage) this.storage.removeItem(VERDICTS_KEY);
    } catch {
      /* nothing to do */
    }
  }
}

/**
 * Damaged progress found on this load was set aside and the page started clean, but the last verdict of each
 * checkpoint is kept apart (VerdictStore) with the code it checked: that code comes back as the checkpoint's draft
 * where it has none, and a pass as a pass, so no page shows "passed" beside "not started" and nothing is lost that is
 * still held. Every page does it as it loads, so what comes back does not depend on which page is opened first (the
 * damage is set aside, and so seen, only once).
 */
export function recoverFromVerdicts(store, verdicts) {
  if (!store.warnings.some((w) => w === "storage_warning_corrupt" || w === "storage_warning_partly")) return;
  for (const [lesson, cp, kept] of verdicts.entries()) {
    if (typeof kept.code !== "string" || !kept.code || !LESSON_ID.test(lesson)) continue;
    if (store.draft(lesson, cp) === null) store.saveDraft(lesson, cp, kept.code);
    if (kept.verdict.status === "pass" && !store.isPassed(lesson, cp)) store.markPassed(lesson, cp, kept.code);
  }
}
