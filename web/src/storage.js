// Progress and drafts in localStorage, under one versioned key.
//
// {"version": 1, "lessons": {"<id>": {"checkpoints": {"<cp>": {"passedAt", "lastPassingCode", "solutionRevealed",
//                                                                 "triedAt"?, "hints"?}},
//                                       "drafts": {"<cp>" | "example:<cp>" | "carried:<cp>:<earlier cp>": "source"}}}}
// `triedAt` (first Check that did not pass) and `hints` (how many hints were revealed) are optional: written only
// once they have a value, so documents from before they existed stay valid and unchanged.
//
// Every write reads what is stored first and merges, and a `storage` event from another tab merges too, so a pass
// recorded in one tab is never lost by another. Broken data is set aside, never thrown away; a newer schema is left
// untouched; a blocked or full storage keeps everything in memory and says so.

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
        if (done) checkpoints[cp] = { passedAt: new Date(0).toISOString(), lastPassingCode: "", solutionRevealed: false };
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

/**
 * Check and normalise a version-1 document; throws Error with a reason when it is not one.
 * Unknown keys are dropped, missing ones filled in.
 */
export function validateProgress(doc) {
  if (!isObject(doc)) throw new Error("not a JSON object");
  if (doc.version !== VERSION) throw new Error(`version ${JSON.stringify(doc.version)} is not ${VERSION}`);
  if (!isObject(doc.lessons)) throw new Error("'lessons' must be an object");
  const out = emptyProgress();
  for (const [id, lesson] of Object.entries(doc.lessons)) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) throw new Error(`bad lesson id ${JSON.stringify(id)}`);
    if (!isObject(lesson)) throw new Error(`lesson ${id} must be an object`);
    const entry = { checkpoints: {}, drafts: {} };
    for (const [cp, rec] of Object.entries(lesson.checkpoints || {})) {
      if (!isObject(rec)) throw new Error(`lesson ${id} checkpoint ${cp} must be an object`);
      const passedAt = typeof rec.passedAt === "string" && !Number.isNaN(Date.parse(rec.passedAt)) ? rec.passedAt : null;
      if (rec.passedAt != null && passedAt === null) throw new Error(`lesson ${id} checkpoint ${cp}: bad passedAt`);
      entry.checkpoints[cp] = {
        passedAt,
        lastPassingCode: typeof rec.lastPassingCode === "string" ? rec.lastPassingCode : "",
        solutionRevealed: rec.solutionRevealed === true,
      };
      if (typeof rec.triedAt === "string" && !Number.isNaN(Date.parse(rec.triedAt))) entry.checkpoints[cp].triedAt = rec.triedAt;
      if (Number.isInteger(rec.hints) && rec.hints > 0) entry.checkpoints[cp].hints = rec.hints;
    }
    for (const [cp, draft] of Object.entries(lesson.drafts || {})) {
      if (typeof draft !== "string") throw new Error(`lesson ${id} draft ${cp} must be text`);
      entry.drafts[cp] = draft;
    }
    out.lessons[id] = entry;
  }
  return out;
}

/** Bring an older document up to VERSION; returns null for a newer (unknown) version. */
export function migrate(doc) {
  let current = doc;
  let version = isObject(doc) && Number.isInteger(doc.version) ? doc.version : 0;
  if (version > VERSION) return null;
  while (version < VERSION) {
    const step = MIGRATIONS[version];
    if (!step) throw new Error(`no migration from version ${version}`);
    current = step(current);
    version = current.version;
  }
  return validateProgress(current);
}

function earlier(a, b) {
  if (!a) return b || null;
  if (!b) return a;
  return Date.parse(a) <= Date.parse(b) ? a : b;
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
          ? Date.parse(x.passedAt) >= Date.parse(y.passedAt) ? x.lastPassingCode : y.lastPassingCode
          : x.passedAt ? x.lastPassingCode : y.lastPassingCode;
      checkpoints[cp] = {
        passedAt: earlier(x.passedAt, y.passedAt),
        lastPassingCode: laterCode || x.lastPassingCode || y.lastPassingCode || "",
        solutionRevealed: Boolean(x.solutionRevealed || y.solutionRevealed),
      };
      const triedAt = earlier(x.triedAt, y.triedAt);
      if (triedAt) checkpoints[cp].triedAt = triedAt;
      const hints = Math.max(x.hints || 0, y.hints || 0);
      if (hints > 0) checkpoints[cp].hints = hints;
    }
    out.lessons[id] = { checkpoints, drafts: { ...b.drafts, ...a.drafts } };
  }
  return out;
}

/**
 * The learner's progress: an in-memory document kept in step with localStorage.
 * `warnings` lists catalog keys to show ("storage_warning_corrupt", "storage_warning_newer",
 * "storage_warning_memory"); listeners registered with onChange() run after every change, local or from another tab.
 */
export class ProgressStore {
  /** Load the stored document (or start clean); `storage` defaults to window.localStorage. */
  constructor(storage) {
    this.warnings = [];
    this.listeners = new Set();
    this.readOnly = false; // a newer schema is stored: never overwrite it
    this.memoryOnly = false;
    try {
      this.storage = storage === undefined ? window.localStorage : storage;
    } catch {
      this.storage = null;
    }
    if (!this.storage) this._memory();
    this.doc = this._read() || emptyProgress();
  }

  _warn(key) {
    if (!this.warnings.includes(key)) this.warnings.push(key);
  }

  _memory() {
    this.memoryOnly = true;
    this._warn("storage_warning_memory");
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
    try {
      parsed = JSON.parse(raw);
      const migrated = migrate(parsed);
      if (migrated === null) {
        this.readOnly = true;
        this._warn("storage_warning_newer");
        return null;
      }
      return migrated;
    } catch {
      this._setAside(raw);
      return null;
    }
  }

  _setAside(raw) {
    this._warn("storage_warning_corrupt");
    try {
      this.storage.setItem(`${KEY}:corrupt:${new Date().toISOString()}`, raw);
      this.storage.removeItem(KEY);
    } catch {
      this._memory();
    }
  }

  _write() {
    if (this.readOnly || this.memoryOnly || !this.storage) return;
    const stored = this._read();
    if (this.readOnly) return;
    if (stored) this.doc = mergeProgress(this.doc, stored);
    try {
      this.storage.setItem(KEY, JSON.stringify(this.doc));
    } catch {
      this._memory(); // QuotaExceededError, SecurityError: keep going in memory
    }
  }

  _changed() {
    for (const fn of this.listeners) fn(this);
  }

  /** Call `fn(store)` after every change; returns a function that unsubscribes. */
  onChange(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
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
      this.doc = mergeProgress(this.doc, stored);
      this._changed();
    }
  }

  _lesson(id) {
    if (!this.doc.lessons[id]) this.doc.lessons[id] = { checkpoints: {}, drafts: {} };
    return this.doc.lessons[id];
  }

  _record(id, cp) {
    const lesson = this._lesson(id);
    if (!lesson.checkpoints[cp]) lesson.checkpoints[cp] = { passedAt: null, lastPassingCode: "", solutionRevealed: false };
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

  /** Record a pass with the code that passed (the first pass time is kept). */
  markPassed(id, cp, code) {
    const rec = this._record(id, cp);
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
    this._write();
  }

  /** The whole document as pretty JSON, for export. */
  exportJson() {
    return JSON.stringify(this.doc, null, 2);
  }

  /** Validate (and migrate) an exported document and merge it in; throws Error with a reason when invalid. */
  importJson(text) {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error("not JSON");
    }
    const migrated = migrate(parsed);
    if (migrated === null) throw new Error("made by a newer version");
    this.doc = mergeProgress(this.doc, migrated);
    this._write();
    this._changed();
  }

  /** Forget all progress and drafts (the caller confirms first). */
  resetAll() {
    this.doc = emptyProgress();
    if (!this.readOnly && !this.memoryOnly && this.storage) {
      try {
        this.storage.removeItem(KEY);
      } catch {
        this._memory();
      }
    }
    this._changed();
  }
}
