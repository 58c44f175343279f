// The output pane of one editor: stdout and stderr as text (never HTML), capped, with a visible notice.

/** Characters shown at most per run (graders/engine/settings.py OUTPUT_LIMIT, compiled in as SETTINGS). */
export const OUTPUT_LIMIT = SETTINGS.outputLimit;

/** Writes program output into a `<pre data-output>` element with textContent only. */
export class OutputView {
  /** `pre` is the output element; `t` translates catalog keys. */
  constructor(pre, t) {
    this.pre = pre;
    this.t = t;
    this.size = 0;
    this.full = false;
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
    this.full = false;
  }

  /** Append `text` of `stream` ("stdout" | "stderr"); past OUTPUT_LIMIT only a notice is shown. */
  append(stream, text, truncatedUpstream = false) {
    if (!text && !truncatedUpstream) return;
    this._show(true);
    if (!this.full) {
      let chunk = text;
      if (this.size + chunk.length > OUTPUT_LIMIT) {
        chunk = chunk.slice(0, OUTPUT_LIMIT - this.size);
        this.full = true;
      }
      this.size += chunk.length;
      const last = this.pre.lastElementChild;
      if (last && last.dataset.stream === stream && !last.classList.contains("output-notice")) {
        last.textContent += chunk;
      } else {
        const span = document.createElement("span");
        span.dataset.stream = stream;
        span.className = `output-${stream}`;
        span.textContent = chunk;
        this.pre.append(span);
      }
      if (this.full) this._notice();
    }
    if (truncatedUpstream && !this.full) {
      this.full = true;
      this._notice();
    }
    this.pre.scrollTop = this.pre.scrollHeight;
  }

  _notice() {
    const note = document.createElement("span");
    note.className = "output-notice";
    note.setAttribute("role", "note");
    note.textContent = `\n… ${this.t("output_truncated", { kb: Math.round(OUTPUT_LIMIT / 1000) })}\n`;
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
