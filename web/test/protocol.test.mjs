// Unit tests for web/src/protocol.js (run by `node --test web/test/`).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Req,
  Res,
  SCHEMA,
  WHEEL_LIMIT,
  belongsTo,
  isPackedWheel,
  newRunId,
  packWheel,
  request,
  response,
  unpackWheel,
  validate,
} from "../src/protocol.js";

test("run ids are random 128-bit hex strings", () => {
  const ids = new Set(Array.from({ length: 50 }, () => newRunId()));
  assert.equal(ids.size, 50);
  for (const id of ids) assert.match(id, /^[0-9a-f]{32}$/);
});

test("constructors stamp schema, type and run id and validate", () => {
  const id = newRunId();
  const req = request(Req.RUN, id, { source: "x", plan: '{"mode": "run"}', timeLimit: 3 });
  assert.equal(req.schema, SCHEMA);
  assert.ok(validate(req, "request"));
  assert.ok(!validate(req, "response"));
  const res = response(Res.VERDICT, id, { verdict: { status: "pass" } });
  assert.ok(belongsTo(res, id));
  assert.ok(!belongsTo(res, newRunId()));
  assert.throws(() => request("nope", id));
  assert.throws(() => response(Req.RUN, id));
});

test("payload fields cannot override the stamped schema, type or run id", () => {
  const id = newRunId();
  const res = response(Res.OUTPUT, id, { stream: "stdout", text: "hi", runId: "forged-forged", schema: 9, type: "x" });
  assert.equal(res.runId, id);
  assert.equal(res.schema, SCHEMA);
  assert.equal(res.type, Res.OUTPUT);
});

test("malformed, foreign-schema and incomplete messages are rejected", () => {
  const id = newRunId();
  const good = response(Res.VERDICT, id, { verdict: { status: "fail" } });
  assert.ok(validate(good, "response"));
  for (const bad of [
    null,
    "verdict",
    [],
    { ...good, schema: SCHEMA + 1 },
    { ...good, runId: 5 },
    { ...good, runId: "short" },
    { ...good, type: "verdicts" },
    { ...good, verdict: null },
    { ...good, verdict: "pass" },
    response(Res.OUTPUT, id, { stream: "stdout" }),
    response(Res.FAILURE, id, { message: "x" }),
  ]) {
    assert.ok(!validate(bad, "response"), JSON.stringify(bad));
  }
  // a forged verdict without the current run id is not accepted even when well-formed
  const forged = response(Res.VERDICT, "0".repeat(32), { verdict: { status: "pass" } });
  assert.ok(validate(forged, "response"));
  assert.ok(!belongsTo(forged, id));
});

test("a response is taken only from the kind of worker that may send it", () => {
  const id = newRunId();
  const verdict = response(Res.VERDICT, id, { verdict: { status: "pass" } });
  const result = response(Res.RESULT, id, { runJson: "{}" });
  const prepared = response(Res.PREPARED, id, { plan: "" });
  assert.ok(belongsTo(verdict, id, "grader") && belongsTo(prepared, id, "grader"));
  assert.ok(!belongsTo(verdict, id, "learner") && !belongsTo(prepared, id, "learner")); // learner code may forge these
  assert.ok(belongsTo(result, id, "learner") && !belongsTo(result, id, "grader"));
  assert.ok(!belongsTo(verdict, id, "someone"));
});

test("a packed wheel unpacks to the same files, and anything that is not one to null", async () => {
  const wheel = {
    name: "numpy",
    fileName: "numpy-2-py3-none-any.whl",
    files: [
      { path: "numpy/__init__.py", data: new Uint8Array([1, 2, 3]) },
      { path: "numpy/empty.py", data: new Uint8Array(0) },
      { path: "numpy/core.so", data: new Uint8Array([9, 8]) },
    ],
  };
  const packed = packWheel(wheel);
  assert.ok(packed.blob instanceof Blob && packed.blob.size === 5);
  assert.ok(isPackedWheel(packed));
  const back = await unpackWheel(packed);
  assert.equal(back.name, "numpy");
  assert.equal(back.fileName, wheel.fileName);
  assert.deepEqual(
    back.files.map((f) => [f.path, Array.from(f.data)]),
    wheel.files.map((f) => [f.path, Array.from(f.data)]),
  );
  const big = { size: WHEEL_LIMIT + 1 };
  for (const bad of [
    null,
    undefined,
    "numpy",
    { ...packed, name: 1 },
    { ...packed, blob: new Uint8Array([1, 2, 3, 9, 8]) },
    { ...packed, blob: Object.setPrototypeOf(big, Blob.prototype), sizes: [WHEEL_LIMIT + 1], paths: ["x"] },
    { ...packed, sizes: [3, 0] },
    { ...packed, sizes: [3, 0, 3] },
    { ...packed, sizes: [3, 0, 1] },
    { ...packed, sizes: [3, -1, 3] },
    { ...packed, sizes: [3, 0.5, 1.5] },
    { ...packed, paths: ["a", 2, "c"] },
    { ...packed, compiled: [{ print: "2:abc", module: new Uint8Array([0, 97, 115, 109]) }] }, // bytes, not a module
    { ...packed, compiled: [{ print: 7, module }] },
    { ...packed, compiled: "numpy" },
  ]) {
    assert.equal(isPackedWheel(bad), false, JSON.stringify(bad && bad.sizes));
    assert.equal(await unpackWheel(bad), null);
  }
});

const module = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));

test("a packed wheel carries its shared libraries as compiled, and only compiled modules", async () => {
  const wheel = { name: "numpy", fileName: "numpy.whl", files: [{ path: "numpy/core.so", data: new Uint8Array([1]) }] };
  const compiled = [{ print: "1:abc", module, shared: false }];
  const packed = packWheel(wheel, compiled);
  assert.ok(isPackedWheel(packed));
  assert.deepEqual((await unpackWheel(packed)).compiled, compiled);
  assert.equal("compiled" in packWheel(wheel), false);
  assert.equal("compiled" in packWheel(wheel, []), false);
  assert.equal("compiled" in (await unpackWheel(packWheel(wheel))), false);
});
