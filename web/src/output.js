// The output pane of one editor: stdout and stderr as text (never HTML), capped, with a visible notice.

/** Characters shown at most per run (graders/engine/settings.py OUTPUT_LIMIT, compiled in as SETTINGS). */
export const OUTPUT_LIMIT = SETTINGS.outputLimit;
/**
 * Lines shown at most per run: a loop printing short lines reaches the character limit only after ~100 000 lines,
 * and laying out a pane that long froze the page for seconds at every chunk (Stop waited behind it).
 */
export const OUTPUT_LINES = 2000;

/** Writes program output into a `<pre data-output>` element with textContent only. */
export class OutputView {
  /** `pre` is the output element; `t` translates catalog keys. */
  constructor(pre, t) {
    this.pre = pre;
    this.t = t;
    this.size = 0;
    this.lines = 0;
    this.full = false;
    this.scrollQueued = false;
    // the pane's visible label ("Output"), shown and hidden with it
    const label = pre.id ? pre.ownerDocument.getElementById(`${pre.id}-label`) : null;
    this.label = label && label.hasAttribute("data-output-label") ? label : null;
  }

  _show(shown) {
    this.pre.hidden = !shown;
    if (this.label) this.label.hidden = !shown;
  }

  /** Empty the pane and hide it. */
  clear() {
    this.pre.replaceChildren();
    this._show(false);
    this.size = 0;
    this.lines = 0;
    this.full = false;
  }

  /**
   * Append `text` of `stream` ("stdout" | "stderr"); past OUTPUT_LIMIT characters or OUTPUT_LINES lines only a
   * notice is shown. Text is added to the stream's last text node (no re-parse of what is there) and the pane
   * scrolls to its end once per frame, however many chunks arrive.
   */
  append(stream, text, truncatedUpstream = false) {
    if (!text && !truncatedUpstream) return;
    this._show(true);
    let cut = null;
    if (!this.full) {
      let chunk = text;
      if (this.size + chunk.length > OUTPUT_LIMIT) {
        chunk = chunk.slice(0, OUTPUT_LIMIT - this.size);
        cut = "output_truncated";
      }
      const room = OUTPUT_LINES - this.lines; // lines that may still end in this pane
      const end = room > 0 ? nthNewline(chunk, room) : -1;
      if (room <= 0 || (end >= 0 && end < chunk.length - 1)) {
        chunk = room <= 0 ? "" : chunk.slice(0, end + 1);
        cut = "output_truncated_lines";
      }
      this.size += chunk.length;
      this.lines += countNewlines(chunk);
      const last = this.pre.lastElementChild;
      if (last && last.dataset.stream === stream && !last.classList.contains("output-notice") && last.firstChild) {
        last.firstChild.appendData(chunk);
      } else {
        const span = document.createElement("span");
        span.dataset.stream = stream;
        span.className = `output-${stream}`;
        span.append(document.createTextNode(chunk));
        this.pre.append(span);
      }
      if (cut) {
        this.full = true;
        this._notice(cut);
      }
    }
    if (truncatedUpstream && !this.full) {
      this.full = true;
      this._notice("output_truncated");
    }
    if (!this.scrollQueued) {
      this.scrollQueued = true;
      const scroll = () => {
        this.scrollQueued = false;
        this.pre.scrollTop = this.pre.scrollHeight;
      };
      if (typeof requestAnimationFrame === "function") requestAnimationFrame(scroll);
      else scroll();
    }
  }

  _notice(key) {
    const note = document.createElement("span");
    note.className = "output-notice";
    note.setAttribute("role", "note");
    const said = this.t(key, { kb: Math.round(OUTPUT_LIMIT / 1000), lines: OUTPUT_LINES });
    note.textContent = `\n… ${said}\n`;
    this.pre.append(note);
  }

  /** Show a line of status text (e.g. "(no output)") when nothing was printed. */
  placeholder(text) {
    if (this.size === 0 && !this.full) {
      this._show(true);
      const span = document.createElement("span");
      span.className = "output-placeholder";
      span.textContent = text;
      this.pre.append(span);
    }
  }
}

/** How many "\n" `text` holds. */
function countNewlines(text) {
  let n = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) n += 1;
  return n;
}

/** The index of the `n`-th "\n" of `text` (n >= 1), or -1 when it holds fewer. */
function nthNewline(text, n) {
  let at = -1;
  for (let i = 0; i < n; i += 1) {
    at = text.indexOf("\n", at + 1);
    if (at < 0) return -1;
  }
  return at;
}
