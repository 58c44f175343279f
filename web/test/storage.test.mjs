// Unit tests for web/src/storage.js (run by `node --test web/test/`, which tests/test_site.py calls).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  KEY,
  ProgressStore,
  VERDICTS_KEY,
  VerdictStore,
  mergeProgress,
  migrate,
  readImport,
  recoverFromVerdicts,
  validateProgress,
} from "../src/storage.js";

/** A Storage look-alike over a Map; `failWrites` makes setItem throw like a full or blocked storage. */
class FakeStorage {
  constructor(entries = {}) {
    this.map = new Map(Object.entries(entries));
    this.failWrites = false;
  }
  getItem(key) {
    return this.map.has(key) ? this.map.get(key) : null;
  }
  setItem(key, value) {
    if (this.failWrites) throw Object.assign(new Error("full"), { name: "QuotaExceededError" });
    this.map.set(key, String(value));
  }
  removeItem(key) {
    this.map.delete(key);
  }
}

const pass = (at, code = "x") => ({ passedAt: at, lastPassingCode: code, solutionRevealed: false });

test("a pass and a draft are written under the versioned key", () => {
  const storage = new FakeStorage();
  const store = new ProgressStore(storage);
  store.markPassed("les", "1", "def f(): pass");
  store.saveDraft("les", "2", "# draft");
  const doc = JSON.parse(storage.getItem(KEY));
  assert.equal(doc.version, 1);
  assert.equal(doc.lessons.les.checkpoints["1"].lastPassingCode, "def f(): pass");
  assert.ok(!Number.isNaN(Date.parse(doc.lessons.les.checkpoints["1"].passedAt)));
  assert.equal(doc.lessons.les.drafts["2"], "# draft");
  assert.equal(new ProgressStore(storage).passedCount("les", ["1", "2", "3"]), 1);
});

test("corrupt JSON is set aside under a timestamped key and the store starts clean", () => {
  const storage = new FakeStorage({ [KEY]: "{oops" });
  const store = new ProgressStore(storage);
  assert.deepEqual(store.warnings, ["storage_warning_corrupt"]);
  assert.equal(storage.getItem(KEY), null);
  const aside = [...storage.map.keys()].filter((k) => k.startsWith(`${KEY}:corrupt:`));
  assert.equal(aside.length, 1);
  assert.equal(storage.getItem(aside[0]), "{oops");
  store.markPassed("les", "1", "ok");
  assert.equal(JSON.parse(storage.getItem(KEY)).lessons.les.checkpoints["1"].lastPassingCode, "ok");
});

test("one damaged field costs only its own part: the rest is kept, and the whole is set aside", () => {
  const at = "2026-12-01T10:00:00.000Z";
  const raw = JSON.stringify({
    version: 1,
    lessons: {
      kept: { checkpoints: { 1: pass(at), 2: pass(at) }, drafts: { 3: "# my draft" } },
      les: { checkpoints: { 1: "yes", 2: { ...pass(at), passedAt: "yesterday" }, 3: pass(at) }, drafts: { 1: 7 } },
      "Bad Id": { checkpoints: { 1: pass(at) } },
    },
  });
  const storage = new FakeStorage({ [KEY]: raw });
  const store = new ProgressStore(storage);
  assert.deepEqual(store.warnings, ["storage_warning_partly"]);
  assert.equal(store.passedCount("kept", ["1", "2", "3"]), 2);
  assert.equal(store.draft("kept", "3"), "# my draft");
  assert.equal(store.passedCount("les", ["1", "2", "3"]), 1); // checkpoint 3 was well-formed
  const aside = [...storage.map.keys()].filter((k) => k.startsWith(`${KEY}:corrupt:`));
  assert.equal(storage.getItem(aside[0]), raw);
  assert.deepEqual(Object.keys(JSON.parse(storage.getItem(KEY)).lessons).sort(), ["kept", "les"]);
  assert.throws(() => validateProgress(JSON.parse(raw)), /must be an object/); // an import is refused as a whole
});

test("drafts or checkpoints stored as a text or a list are damaged, not read letter by letter", () => {
  const at = "2026-12-01T10:00:00.000Z";
  for (const damaged of ["abc", ["x", "y"], 7]) {
    const raw = JSON.stringify({
      version: 1,
      lessons: {
        les: { checkpoints: { 1: pass(at) }, drafts: damaged },
        other: { checkpoints: damaged, drafts: { 1: "# mine" } },
      },
    });
    const storage = new FakeStorage({ [KEY]: raw });
    const store = new ProgressStore(storage);
    assert.deepEqual(store.warnings, ["storage_warning_partly"]);
    for (const cp of ["0", "1", "2"]) assert.equal(store.draft("les", cp), null);
    assert.equal(store.passedCount("les", ["1"]), 1); // the lesson's well-formed part is kept
    assert.equal(store.passedCount("other", ["0", "1"]), 0);
    assert.equal(store.draft("other", "1"), "# mine");
    assert.throws(() => validateProgress(JSON.parse(raw)), /must be an object/);
  }
});

test("damaged progress comes back from the kept verdicts, on whichever page loads first, and only then", () => {
  const at = "2026-12-01T10:00:00.000Z";
  const kept = (status, code) => ({ verdict: { status, passed: 1, total: 1 }, timeLimit: 5, code, at });
  const verdicts = JSON.stringify({
    les: { 1: kept("pass", "# passing"), 2: kept("fail", "# trying") },
    other: { 3: kept("pass", "") },
  });
  const storage = new FakeStorage({ [KEY]: "{not json", [VERDICTS_KEY]: verdicts });
  const store = new ProgressStore(storage);
  recoverFromVerdicts(store, new VerdictStore(storage));
  assert.equal(store.draft("les", "1"), "# passing");
  assert.equal(store.draft("les", "2"), "# trying");
  assert.equal(store.passedCount("les", ["1", "2"]), 1);
  assert.equal(store.passedCount("other", ["3"]), 0); // no code kept with it: nothing to show as passing
  // the next page's load finds clean progress: nothing is taken back again (a draft the learner changed stays)
  store.saveDraft("les", "1", "# changed");
  const next = new ProgressStore(storage);
  recoverFromVerdicts(next, new VerdictStore(storage));
  assert.equal(next.draft("les", "1"), "# changed");
});

test("a draft that cannot be written tells the page at once, so its warning shows while the learner types", async () => {
  const storage = new FakeStorage();
  const store = new ProgressStore(storage);
  const seen = [];
  store.onChange((s) => seen.push([...s.warnings]));
  storage.failWrites = true;
  store.saveDraft("les", "1", "# typed");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(seen, [["storage_warning_memory"]]);
  assert.equal(store.draft("les", "1"), "# typed"); // kept in memory for this page
  store.saveDraft("les", "1", "# typed more");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(seen.length, 1); // said once
});

test("damaged progress with no room to set it aside stays as it was, and Reset all clears it", () => {
  const raw = JSON.stringify({ version: 1, lessons: { les: { checkpoints: { 1: "yes" } } } });
  const storage = new FakeStorage({ [KEY]: raw });
  storage.failWrites = true;
  const store = new ProgressStore(storage);
  assert.deepEqual(store.warnings, ["storage_warning_damaged_kept"]);
  store.markPassed("les", "2", "code");
  assert.equal(storage.getItem(KEY), raw); // nothing lost, nothing overwritten
  assert.equal(store.isPassed("les", "2"), true); // kept in memory
  storage.failWrites = false;
  store.resetAll();
  assert.equal(storage.getItem(KEY), null);
  store.markPassed("les", "1", "again");
  assert.equal(JSON.parse(storage.getItem(KEY)).lessons.les.checkpoints["1"].lastPassingCode, "again");
});

test("a newer schema is left untouched and nothing is written", () => {
  const future = JSON.stringify({ version: 7, stuff: [1, 2] });
  const storage = new FakeStorage({ [KEY]: future });
  const store = new ProgressStore(storage);
  assert.deepEqual(store.warnings, ["storage_warning_newer"]);
  store.markPassed("les", "1", "code");
  store.saveDraft("les", "1", "draft");
  assert.equal(storage.getItem(KEY), future);
  assert.equal(store.isPassed("les", "1"), true); // still works in memory
});

test("version 0 documents are migrated", () => {
  const storage = new FakeStorage({ [KEY]: JSON.stringify({ les: { 1: true, 2: false } }) });
  const store = new ProgressStore(storage);
  assert.deepEqual(store.warnings, []);
  assert.equal(store.isPassed("les", "1"), true);
  assert.equal(store.isPassed("les", "2"), false);
  assert.equal(migrate({ version: 99 }), null);
});

test("a version field that is damaged or missing is not taken for the pre-release shape: what is there is kept", () => {
  const stored = {
    version: 1,
    lessons: { les: { checkpoints: { 1: pass("2026-01-01T00:00:00.000Z", "mine") }, drafts: { 2: "# draft" } } },
  };
  for (const version of ["1", null, 1.5, 0, -1, undefined]) {
    const raw = JSON.stringify({ ...stored, version });
    const storage = new FakeStorage({ [KEY]: raw });
    const store = new ProgressStore(storage);
    assert.deepEqual(store.warnings, ["storage_warning_partly"], String(version));
    assert.equal(store.isPassed("les", "1"), true, String(version));
    assert.equal(JSON.parse(storage.getItem(KEY)).lessons.les.drafts["2"], "# draft");
    assert.equal(JSON.parse(storage.getItem(KEY)).lessons.lessons, undefined); // no lesson made of the field's name
    const aside = [...storage.map.keys()].filter((k) => k.startsWith(`${KEY}:corrupt:`));
    assert.deepEqual(
      aside.map((k) => storage.getItem(k)),
      [raw],
    );
  }
  for (const junk of [[1, 2, 3], { lessons: [1] }, { les: { 1: "yes" } }, "text", 7]) {
    const raw = JSON.stringify(junk);
    const storage = new FakeStorage({ [KEY]: raw });
    const store = new ProgressStore(storage);
    assert.deepEqual(store.warnings, ["storage_warning_corrupt"], raw);
    assert.equal(storage.getItem(KEY), null);
    assert.ok([...storage.map.values()].includes(raw), raw); // set aside, never thrown away
  }
  assert.throws(() => migrate({ version: "1", lessons: {} }), /version "1" is not 1/); // an import says why
});

test("a failing setItem switches to memory with a warning and keeps working", () => {
  const storage = new FakeStorage();
  storage.failWrites = true;
  const store = new ProgressStore(storage);
  store.markPassed("les", "3", "c");
  assert.deepEqual(store.warnings, ["storage_warning_memory"]);
  assert.equal(store.isPassed("les", "3"), true);
  assert.equal(storage.getItem(KEY), null);
});

test("storage that throws on access (blocked cookies) is treated as memory-only", () => {
  const blocked = {
    getItem() {
      throw Object.assign(new Error("denied"), { name: "SecurityError" });
    },
    setItem() {
      throw Object.assign(new Error("denied"), { name: "SecurityError" });
    },
    removeItem() {},
  };
  const store = new ProgressStore(blocked);
  store.markPassed("les", "1", "c");
  assert.ok(store.warnings.includes("storage_warning_memory"));
  assert.equal(store.isPassed("les", "1"), true);
});

test("two stores on one storage never lose each other's passes", () => {
  const storage = new FakeStorage();
  const tabA = new ProgressStore(storage);
  const tabB = new ProgressStore(storage); // opened before A passes anything
  tabA.markPassed("les", "1", "a");
  tabB.markPassed("les", "2", "b");
  tabB.saveDraft("les", "3", "draft b");
  const doc = JSON.parse(storage.getItem(KEY));
  assert.deepEqual(Object.keys(doc.lessons.les.checkpoints).sort(), ["1", "2"]);
  tabA.syncFromStorage();
  assert.equal(tabA.passedCount("les", ["1", "2", "3"]), 2);
  assert.equal(tabA.draft("les", "3"), "draft b");
});

test("merge keeps the earliest pass time, the later pass's code and any revealed solution", () => {
  const a = {
    version: 1,
    lessons: { l: { checkpoints: { 1: pass("2026-01-02T00:00:00.000Z", "new") }, drafts: { 1: "mine" } } },
  };
  const b = {
    version: 1,
    lessons: {
      l: {
        checkpoints: { 1: { ...pass("2026-01-01T00:00:00.000Z", "old"), solutionRevealed: true } },
        drafts: { 1: "theirs", 2: "other" },
      },
    },
  };
  const merged = mergeProgress(a, b);
  assert.deepEqual(merged.lessons.l.checkpoints["1"], {
    passedAt: "2026-01-01T00:00:00.000Z",
    lastPassingCode: "new",
    solutionRevealed: true,
  });
  assert.deepEqual(merged.lessons.l.drafts, { 1: "mine", 2: "other" });
});

test("import validates, merges and rejects junk with a reason", () => {
  const store = new ProgressStore(new FakeStorage());
  store.markPassed("les", "1", "x");
  const other = { version: 1, lessons: { les: { checkpoints: { 2: pass("2026-03-01T00:00:00.000Z") }, drafts: {} } } };
  store.importJson(JSON.stringify(other));
  assert.equal(store.passedCount("les", ["1", "2"]), 2);
  const reason = (code, detail) => (error) => error.code === code && detail.test(error.message);
  assert.throws(() => store.importJson("not json"), reason("not_json", /not JSON/));
  assert.throws(() => store.importJson("[]"), reason("not_progress", /not a progress document/));
  assert.throws(() => store.importJson(JSON.stringify({ version: 1, lessons: [] })), reason("not_progress", /lessons/));
  const badId = JSON.stringify({ version: 1, lessons: { "Bad Id": {} } });
  assert.throws(() => store.importJson(badId), reason("not_progress", /lesson id/));
  assert.throws(() => store.importJson(JSON.stringify({ version: 5, lessons: {} })), reason("newer", /newer/));
  assert.equal(store.passedCount("les", ["1", "2"]), 2); // a failed import changes nothing
});

test("an import where both sides hold other code for an editor keeps the side the learner chose", () => {
  const file = JSON.stringify({
    version: 1,
    lessons: { les: { checkpoints: {}, drafts: { 1: "from the file", 2: "same", 3: "only in the file" } } },
  });
  const local = () => {
    const storage = new FakeStorage();
    const earlier = new ProgressStore(storage);
    earlier.saveDraft("les", "1", "on this device");
    earlier.saveDraft("les", "2", "same");
    return new ProgressStore(storage); // a later visit: its drafts were saved by another page
  };
  // the same text, or a draft on one side only, is no conflict
  assert.equal(local().draftConflicts(readImport(file)), 1);
  const kept = local();
  kept.importJson(file);
  assert.deepEqual(kept.doc.lessons.les.drafts, { 1: "on this device", 2: "same", 3: "only in the file" });
  const replaced = local();
  replaced.importJson(file, { preferFile: true });
  assert.deepEqual(replaced.doc.lessons.les.drafts, { 1: "from the file", 2: "same", 3: "only in the file" });
});

test("export round-trips through import into an empty store", () => {
  const first = new ProgressStore(new FakeStorage());
  first.markPassed("a", "1", "code <&>");
  first.saveDraft("a", "2", "draft");
  first.markSolutionRevealed("a", "3");
  const second = new ProgressStore(new FakeStorage());
  second.importJson(first.exportJson());
  assert.deepEqual(second.doc, first.doc);
  assert.deepEqual(validateProgress(JSON.parse(first.exportJson())), first.doc);
});

test("reset all empties the store and another tab follows", () => {
  const storage = new FakeStorage();
  const tabA = new ProgressStore(storage);
  const tabB = new ProgressStore(storage);
  tabA.markPassed("les", "1", "x");
  tabB.syncFromStorage();
  assert.equal(tabB.isPassed("les", "1"), true);
  tabA.resetAll();
  assert.equal(storage.getItem(KEY), null);
  tabB.syncFromStorage();
  assert.equal(tabB.isPassed("les", "1"), false);
  tabB.saveDraft("les", "1", "d"); // must not bring the old pass back
  assert.equal(new ProgressStore(storage).isPassed("les", "1"), false);
});

test("tried and revealed hints are kept, merged, and absent from documents that never had them", () => {
  const storage = new FakeStorage();
  const store = new ProgressStore(storage);
  store.markTried("les", "1");
  const first = store.checkpoint("les", "1").triedAt;
  store.markTried("les", "1"); // the first time is kept
  assert.equal(store.checkpoint("les", "1").triedAt, first);
  store.markHintsShown("les", "1", 2);
  store.markHintsShown("les", "1", 1); // never fewer
  assert.equal(new ProgressStore(storage).hintsShown("les", "1"), 2);
  const merged = mergeProgress(
    validateProgress({ version: 1, lessons: { les: { checkpoints: { 1: { ...pass(null), hints: 3 } }, drafts: {} } } }),
    JSON.parse(storage.getItem(KEY)),
  );
  assert.equal(merged.lessons.les.checkpoints["1"].hints, 3);
  assert.equal(merged.lessons.les.checkpoints["1"].triedAt, first);
  const plain = validateProgress({ version: 1, lessons: { x: { checkpoints: { 1: pass("2026-01-01T00:00:00Z") } } } });
  assert.deepEqual(Object.keys(plain.lessons.x.checkpoints["1"]).sort(), [
    "lastPassingCode",
    "passedAt",
    "solutionRevealed",
  ]);
});

test("a draft another tab changed is never written back stale, and is reported", async () => {
  const storage = new FakeStorage();
  const a = new ProgressStore(storage);
  const b = new ProgressStore(storage);
  a.saveDraft("les", "1", "# first");
  b.syncFromStorage();
  const heard = [];
  a.onForeignDraft((change) => heard.push(change));
  b.saveDraft("les", "1", "# from tab b"); // b changes the draft a wrote
  a.markTried("les", "2"); // a writes something else before its storage event about b's change arrived
  assert.equal(JSON.parse(storage.getItem(KEY)).lessons.les.drafts["1"], "# from tab b");
  await Promise.resolve();
  assert.deepEqual(heard, [{ lesson: "les", key: "1", text: "# from tab b" }]);
  a.saveDraft("les", "1", "# a again"); // a's learner goes on with a's own version: that is saved
  assert.equal(JSON.parse(storage.getItem(KEY)).lessons.les.drafts["1"], "# a again");
});

test("a tab that never saved a draft keeps the stored one when it writes", () => {
  const storage = new FakeStorage();
  const a = new ProgressStore(storage);
  const b = new ProgressStore(storage); // loaded before a's draft existed
  a.saveDraft("les", "1", "# a's draft");
  b.markTried("les", "2"); // b writes without having heard of a's draft: it must not drop or replace it
  assert.equal(JSON.parse(storage.getItem(KEY)).lessons.les.drafts["1"], "# a's draft");
  const heard = [];
  b.onForeignDraft((change) => heard.push(change));
  a.saveDraft("les", "1", "# a's second draft");
  b.syncFromStorage();
  // both drafts are told: the first came in with b's own write (b's page follows it where its editor is untouched)
  assert.deepEqual(heard, [
    { lesson: "les", key: "1", text: "# a's draft" },
    { lesson: "les", key: "1", text: "# a's second draft" },
  ]);
  assert.equal(b.draft("les", "1"), "# a's second draft");
  b.saveDraft("les", "1", "# b keeps typing"); // b's learner chose to go on with b's version
  assert.equal(JSON.parse(storage.getItem(KEY)).lessons.les.drafts["1"], "# b keeps typing");
});

test("a tab with no draft of its own hears of another tab's first draft", () => {
  // its editor still shows what it loaded (a starter): the page can follow the new draft only if it is told
  const storage = new FakeStorage();
  const a = new ProgressStore(storage);
  const b = new ProgressStore(storage);
  const heard = [];
  b.onForeignDraft((change) => heard.push(change));
  a.saveDraft("les", "1", "# a's first draft");
  b.syncFromStorage();
  assert.deepEqual(heard, [{ lesson: "les", key: "1", text: "# a's first draft" }]);
  b.syncFromStorage(); // the same draft again: nothing new to tell
  assert.equal(heard.length, 1);
});

test("a first pass after the shown solution is marked, and where the learner was last is kept", () => {
  const storage = new FakeStorage();
  const store = new ProgressStore(storage);
  store.markSolutionRevealed("les", "1");
  store.markPassed("les", "1", "x");
  store.markPassed("les", "2", "y");
  store.markSolutionRevealed("les", "2"); // shown after passing: solved alone
  assert.equal(store.passedWithSolution("les", "1"), true);
  assert.equal(store.passedWithSolution("les", "2"), false);
  store.markLast("les", "ar", "2");
  const again = new ProgressStore(storage);
  assert.equal(again.passedWithSolution("les", "1"), true);
  assert.deepEqual({ ...again.last(), at: null }, { lesson: "les", lang: "ar", checkpoint: "2", at: null });
  assert.equal(
    validateProgress({ version: 1, lessons: {}, last: { lesson: "BAD ID", lang: "en", checkpoint: "1", at: "x" } })
      .last,
    undefined,
  );
  const older = {
    version: 1,
    lessons: {},
    last: { lesson: "old", lang: "en", checkpoint: "1", at: "2020-01-01T00:00:00.000Z" },
  };
  assert.equal(mergeProgress(older, again.doc).last.lesson, "les"); // the later place wins
});

test("the last verdict of a checkpoint is kept apart, without its output, and bounded", async () => {
  const { VerdictStore, VERDICTS_KEY, compactVerdict } = await import("../src/storage.js");
  const storage = new FakeStorage();
  const verdicts = new VerdictStore(storage);
  verdicts.put(
    "les",
    "1",
    { status: "fail", passed: 1, total: 2, stdout: "noise", failing: [] },
    { code: "c", timeLimit: 5 },
  );
  const kept = new VerdictStore(storage).get("les", "1");
  assert.equal(kept.verdict.status, "fail");
  assert.equal(kept.verdict.stdout, undefined);
  assert.equal(kept.code, "c");
  assert.ok(storage.getItem(VERDICTS_KEY));
  assert.equal(storage.getItem(KEY), null); // not part of the progress document
  const big = { status: "fail", failing: Array.from({ length: 50 }, () => ({ call_source: "x".repeat(4000) })) };
  const small = compactVerdict(big);
  assert.ok(
    JSON.stringify(small).length <= 60_000 && small.failing.length === 50 && small.failing[0].call_source === null,
  );
  assert.equal(small.kept_without_sources, true); // the page says why a listed case has no Try
  const long = { status: "fail", failing: Array.from({ length: 50 }, () => ({ call: "x".repeat(1500) })) };
  assert.equal(compactVerdict(long).failing.length, 20); // fewer cases listed rather than none
  // every case failed: thousands of long case ids, kept as their number, and the rest of the verdict kept whole
  const ids = Array.from({ length: 1500 }, (_, i) => `gen/context/relevant[${i}]/random-${i}/${i}`);
  const all = { status: "fail", passed: 0, total: 1500, failed_cases: ids, failing: [{ call_source: "f([])" }] };
  const keptAll = compactVerdict(all);
  assert.ok(keptAll && keptAll.failed_count === 1500 && keptAll.failed_cases === undefined);
  assert.equal(keptAll.failing[0].call_source, "f([])");
  verdicts.clear();
  assert.equal(verdicts.get("les", "1"), null);
});

test("forgetting one checkpoint's kept verdict keeps the others", () => {
  const storage = new FakeStorage();
  const verdicts = new VerdictStore(storage);
  verdicts.put("les", "1", { status: "fail", passed: 1, total: 3 });
  verdicts.put("les", "2", { status: "pass", passed: 3, total: 3 });
  verdicts.forget("les", "1");
  assert.equal(verdicts.get("les", "1"), null);
  assert.equal(new VerdictStore(storage).get("les", "2").verdict.status, "pass");
  assert.deepEqual(Object.keys(JSON.parse(storage.getItem(VERDICTS_KEY)).les), ["2"]);
});
