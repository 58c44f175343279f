// web/src/bidi.js gives the pieces werkbank/bidi.py gives, on the shared cases of tests/data/bidi_runs.json.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { ltrRuns } from "../src/bidi.js";

const cases = JSON.parse(readFileSync(new URL("../../tests/data/bidi_runs.json", import.meta.url), "utf8")).cases;

test("left-to-right runs in right-to-left text are found as the build finds them", () => {
  for (const [text, want] of cases) assert.deepEqual(ltrRuns(text), want, text);
});

test("joined, the pieces are the text again", () => {
  for (const [text] of cases)
    assert.equal(
      ltrRuns(text)
        .map(([piece]) => piece)
        .join(""),
      text,
    );
});
