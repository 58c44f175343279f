// Reliability diagrams: the learner's next to the reference's after a checkpoint run (renderReliability), and an
// interactive figure in the lesson text (mount). SVG built with createElementNS; every text goes in via textContent.

const SVG_NS = "http://www.w3.org/2000/svg";

const STRINGS = {
  en: {
    yours: "Your diagram",
    reference: "Reference",
    confidence: "confidence",
    accuracy: "accuracy",
    diagonal: "dashed line: perfect calibration",
    tableCaption: "Reliability data per bin",
    bin: "bin",
    count: "count",
    meanConf: "mean confidence",
    acc: "accuracy",
    yourPrefix: "yours: ",
    refPrefix: "reference: ",
    showTable: "Show the data as a table",
    unusable:
      "Your function's result cannot be drawn: a reliability diagram needs three sequences of numbers of equal length " +
      "(mean confidence, accuracy, count).",
    noResult: "Your function returned no result for this case, so only the reference is drawn.",
    empty: "no predictions",
    summary: "{title}: {bins} bins, {populated} of them populated, {n} predictions.",
    sliderLabel: "Confidence of the model",
    under: "underconfident",
    calibrated: "calibrated",
    over: "overconfident",
    binsLabel: "Bins",
    sizeLabel: "Predictions",
    resample: "New sample",
    stats: "ECE {ece} · Brier {brier} · populated bins {populated} of {bins}",
    figureTitle: "Simulated model",
  },
  nl: {
    yours: "Jouw diagram",
    reference: "Referentie",
    confidence: "zekerheid",
    accuracy: "nauwkeurigheid",
    diagonal: "stippellijn: perfecte kalibratie",
    tableCaption: "Betrouwbaarheidsgegevens per bak",
    bin: "bak",
    count: "aantal",
    meanConf: "gem. zekerheid",
    acc: "nauwkeurigheid",
    yourPrefix: "jij: ",
    refPrefix: "referentie: ",
    showTable: "Toon de gegevens als tabel",
    unusable:
      "Het resultaat van je functie kan niet getekend worden: een betrouwbaarheidsdiagram heeft drie even lange reeksen " +
      "getallen nodig (gemiddelde zekerheid, nauwkeurigheid, aantal).",
    noResult: "Je functie gaf voor dit geval geen resultaat, dus alleen de referentie wordt getekend.",
    empty: "geen voorspellingen",
    summary: "{title}: {bins} bakken, waarvan {populated} gevuld, {n} voorspellingen.",
    sliderLabel: "Zekerheid van het model",
    under: "te onzeker",
    calibrated: "gekalibreerd",
    over: "te zeker",
    binsLabel: "Bakken",
    sizeLabel: "Voorspellingen",
    resample: "Nieuwe steekproef",
    stats: "ECE {ece} · Brier {brier} · gevulde bakken {populated} van {bins}",
    figureTitle: "Gesimuleerd model",
  },
  ar: {
    yours: "مخططك",
    reference: "المخطط المرجعي",
    confidence: "الثقة",
    accuracy: "الدقة",
    diagonal: "الخط المتقطع: معايرة مثالية",
    tableCaption: "بيانات الموثوقية لكل حاوية",
    bin: "الحاوية",
    count: "العدد",
    meanConf: "متوسط الثقة",
    acc: "الدقة",
    yourPrefix: "لديك: ",
    refPrefix: "المرجع: ",
    showTable: "اعرض البيانات في جدول",
    unusable:
      "لا يمكن رسم نتيجة دالتك: يحتاج مخطط الموثوقية إلى ثلاث متتاليات أعداد متساوية الطول " +
      "(متوسط الثقة، والدقة، والعدد).",
    noResult: "لم تُعِد دالتك نتيجة لهذه الحالة، لذا يُرسم المخطط المرجعي وحده.",
    empty: "لا تنبؤات",
    summary: "{title}: {bins} حاوية، منها {populated} مأهولة، و{n} تنبؤًا.",
    sliderLabel: "ثقة النموذج",
    under: "ثقة ناقصة",
    calibrated: "معايَر",
    over: "ثقة مفرطة",
    binsLabel: "الحاويات",
    sizeLabel: "التنبؤات",
    resample: "عينة جديدة",
    stats: "ECE {ece} · Brier {brier} · الحاويات المأهولة: {populated} من {bins}",
    figureTitle: "نموذج محاكى",
  },
};

function strings(lang) {
  return STRINGS[lang] || STRINGS.en;
}

function fill(text, values) {
  let out = text;
  for (const [name, value] of Object.entries(values)) out = out.split(`{${name}}`).join(String(value));
  return out;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function svg(tag, attrs = {}, style = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  for (const [name, value] of Object.entries(style)) node.style.setProperty(name, value);
  return node;
}

// ---- plot data -> numbers --------------------------------------------------------------------------------------

// One plain series (the engine hands plots plain numbers; NaN and infinities arrive as null) or null.
function series(values) {
  if (!Array.isArray(values) || !values.every((v) => v === null || typeof v === "number" || typeof v === "boolean")) {
    return null;
  }
  return values.map((v) => (v === null ? NaN : Number(v)));
}

/**
 * The reliability triple of a plot's plain data (three equally long lists of numbers) as {conf, acc, count}, or
 * null when it is not one. Any container the learner returned arrives as a list, so a wrong container still draws
 * (the verdict already says what is wrong with it).
 */
export function decodeTriple(data) {
  if (!Array.isArray(data) || data.length !== 3) return null;
  const [conf, acc, count] = data.map(series);
  if (!conf || !acc || !count) return null;
  if (conf.length !== acc.length || acc.length !== count.length || conf.length === 0) return null;
  return { conf, acc, count };
}

// ---- drawing ----------------------------------------------------------------------------------------------------

const SIZE = 240;
const PAD = { left: 40, right: 10, top: 10, bottom: 34 };

function format(value, digits = 3) {
  if (value === null || value === undefined) return "—";
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

function clamp01(v) {
  return Math.min(1, Math.max(0, v));
}

/** Draw one reliability diagram as an SVG element; returns the <svg>. `muted` draws it in neutral tones. */
export function drawDiagram(data, title, lang, muted = false) {
  const s = strings(lang);
  const width = SIZE + PAD.left + PAD.right;
  const height = SIZE + PAD.top + PAD.bottom;
  const root = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    class: "reliability-svg",
    direction: "ltr",
  });
  root.style.direction = "ltr";
  const bins = data.conf.length;
  const populated = data.count.filter((c) => c > 0).length;
  const n = data.count.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  const label = fill(s.summary, { title, bins, populated, n });
  root.setAttribute("aria-label", label);
  const titleNode = svg("title");
  titleNode.textContent = label;
  root.append(titleNode);

  const x = (v) => PAD.left + clamp01(v) * SIZE;
  const y = (v) => PAD.top + (1 - clamp01(v)) * SIZE;

  // frame and grid
  root.append(svg("rect", { x: PAD.left, y: PAD.top, width: SIZE, height: SIZE, fill: "none" },
    { stroke: "currentColor", "stroke-opacity": "0.5" }));
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    root.append(svg("line", { x1: x(tick), y1: y(0), x2: x(tick), y2: y(0) + 4 }, { stroke: "currentColor" }));
    root.append(svg("line", { x1: x(0) - 4, y1: y(tick), x2: x(0), y2: y(tick) }, { stroke: "currentColor" }));
    if (tick === 0 || tick === 0.5 || tick === 1) {
      const tx = svg("text", { x: x(tick), y: y(0) + 15, "text-anchor": "middle", "font-size": 11 },
        { fill: "currentColor" });
      tx.textContent = String(tick);
      root.append(tx);
      const ty = svg("text", { x: x(0) - 7, y: y(tick) + 4, "text-anchor": "end", "font-size": 11 },
        { fill: "currentColor" });
      ty.textContent = String(tick);
      root.append(ty);
    }
  }
  const xl = svg("text", { x: x(0.5), y: height - 4, "text-anchor": "middle", "font-size": 12 },
    { fill: "currentColor" });
  xl.textContent = s.confidence;
  root.append(xl);
  const yl = svg("text", {
    x: 12, y: y(0.5), "text-anchor": "middle", "font-size": 12, transform: `rotate(-90 12 ${y(0.5)})`,
  }, { fill: "currentColor" });
  yl.textContent = s.accuracy;
  root.append(yl);

  // bars: the accuracy of every populated bin over the bin's interval
  const barColor = muted ? "var(--muted, #6b6b6b)" : "var(--accent, #3b6fb6)";
  const barStyle = { fill: barColor, "fill-opacity": "0.3", stroke: barColor };
  for (let b = 0; b < bins; b += 1) {
    if (!(data.count[b] > 0)) continue;
    const acc = data.acc[b];
    if (!Number.isFinite(acc)) continue;
    const top = y(acc);
    root.append(svg("rect", {
      x: x(b / bins), y: top, width: Math.max(0.5, x((b + 1) / bins) - x(b / bins)), height: y(0) - top,
    }, barStyle));
  }
  // the diagonal of perfect calibration
  root.append(svg("line", { x1: x(0), y1: y(0), x2: x(1), y2: y(1) },
    { stroke: "currentColor", "stroke-dasharray": "5 4", "stroke-opacity": "0.8" }));
  // points: (mean confidence, accuracy) of every populated bin
  for (let b = 0; b < bins; b += 1) {
    if (!(data.count[b] > 0)) continue;
    const cx = data.conf[b];
    const cy = data.acc[b];
    if (!Number.isFinite(cx) || !Number.isFinite(cy)) continue;
    root.append(svg("circle", { cx: x(cx), cy: y(cy), r: 3.5 },
      { fill: muted ? "var(--fg, #333)" : "var(--accent-strong, #1d3f73)", stroke: "var(--bg, #fff)" }));
  }
  return root;
}

function panel(data, title, lang, muted) {
  const box = el("figure", "reliability-panel");
  box.style.margin = "0";
  box.append(el("figcaption", "reliability-title", title));
  box.append(drawDiagram(data, title, lang, muted));
  return box;
}

function binRange(b, bins) {
  return `${format(b / bins, 2)}–${format((b + 1) / bins, 2)}`;
}

/**
 * The text alternative: one row per bin with count, mean confidence and accuracy of the learner's result (when
 * given) and the reference's. Without a learner result the columns carry no "yours/reference" prefix.
 */
export function dataTable(actual, expected, lang) {
  const s = strings(lang);
  const refPrefix = actual ? s.refPrefix : "";
  const table = el("table", "reliability-table");
  table.dir = lang === "ar" ? "rtl" : "ltr";
  table.append(el("caption", null, s.tableCaption));
  const head = el("tr");
  const columns = [s.bin];
  if (actual) columns.push(s.yourPrefix + s.count, s.yourPrefix + s.meanConf, s.yourPrefix + s.acc);
  columns.push(refPrefix + s.count, refPrefix + s.meanConf, refPrefix + s.acc);
  for (const name of columns) {
    const th = el("th", null, name);
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  const rows = Math.max(actual ? actual.conf.length : 0, expected ? expected.conf.length : 0);
  const bins = expected ? expected.conf.length : rows;
  for (let b = 0; b < rows; b += 1) {
    const tr = el("tr");
    const th = el("th", null, b < bins ? binRange(b, bins) : String(b));
    th.scope = "row";
    th.dir = "ltr";
    tr.append(th);
    const cells = [];
    for (const data of actual ? [actual, expected] : [expected]) {
      if (data && b < data.conf.length) cells.push(format(data.count[b], 0), format(data.conf[b]), format(data.acc[b]));
      else cells.push("—", "—", "—");
    }
    for (const text of cells) {
      const td = el("td", null, text);
      td.dir = "ltr";
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(body);
  return table;
}

function layout() {
  const row = el("div", "reliability-row");
  row.style.display = "flex";
  row.style.flexWrap = "wrap";
  row.style.gap = "1rem";
  row.style.alignItems = "flex-start";
  return row;
}

/**
 * Draw a verdict's reliability plot into `container`:
 * plot = {kind: "reliability", expected: plain data, actual: plain data | null, note: string | null}.
 * The learner's diagram (when it can be drawn) sits next to the reference's; a data table is the text alternative,
 * and a note explains when the learner's result could not be drawn.
 */
export function renderReliability(container, plot, lang) {
  const s = strings(lang);
  container.replaceChildren();
  container.classList.add("reliability-plot");
  const expected = plot ? decodeTriple(plot.expected) : null;
  const actual = plot && plot.actual !== null && plot.actual !== undefined ? decodeTriple(plot.actual) : null;
  const notes = [];
  if (plot && typeof plot.note === "string" && plot.note) notes.push(plot.note);
  if (plot && (plot.actual === null || plot.actual === undefined)) notes.push(s.noResult);
  else if (!actual) notes.push(s.unusable);
  if (!expected && !actual) {
    for (const note of notes) {
      const p = el("p", "reliability-note", note);
      p.dir = lang === "ar" ? "rtl" : "ltr";
      p.style.textAlign = "start";
      container.append(p);
    }
    return container;
  }
  // The verdict area is left-to-right; text and the order of the two panels follow the page's language,
  // while the plots themselves keep their axes left to right.
  const textDir = lang === "ar" ? "rtl" : "ltr";
  const row = layout();
  row.dir = textDir;
  row.style.textAlign = "start"; // the verdict area's [dir="ltr"] rule would pin everything to the left
  if (actual) row.append(panel(actual, s.yours, lang));
  if (expected) row.append(panel(expected, s.reference, lang, Boolean(actual)));
  container.append(row);
  const legend = el("p", "reliability-legend", s.diagonal);
  legend.dir = textDir;
  legend.style.textAlign = "start";
  container.append(legend);
  for (const note of notes) {
    const p = el("p", "reliability-note", note);
    p.dir = textDir;
    p.style.textAlign = "start";
    container.append(p);
  }
  const details = el("details", "reliability-data");
  details.dir = textDir;
  details.style.textAlign = "start";
  details.append(el("summary", null, s.showTable));
  details.append(dataTable(actual, expected, lang));
  container.append(details);
  return container;
}

// ---- the interactive figure in the lesson text ------------------------------------------------------------------

// A small seeded generator (mulberry32), so the same settings always show the same sample.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Simulate `n` predictions: a true probability q per prediction, the outcome drawn from q, and a stated confidence
 * that stretches q's log-odds by `sharpness` (1 = calibrated, above 1 overconfident, below 1 underconfident).
 */
export function simulate(n, sharpness, seed) {
  const random = generator(seed);
  const conf = new Float64Array(n);
  const right = new Uint8Array(n);
  for (let i = 0; i < n; i += 1) {
    const q = 0.15 + 0.84 * random();
    const logit = Math.log(q / (1 - q)) * sharpness;
    conf[i] = 1 / (1 + Math.exp(-logit));
    right[i] = random() < q ? 1 : 0;
  }
  return { conf, right };
}

/** Bin predictions the lesson's way (inner edges go up, 1.0 joins the last bin); returns the triple, ECE and Brier. */
export function summarize(conf, right, bins) {
  const sumConf = new Array(bins).fill(0);
  const sumAcc = new Array(bins).fill(0);
  const count = new Array(bins).fill(0);
  let brier = 0;
  const n = conf.length;
  const step = 1 / bins;
  const edge = (k) => (k === bins ? 1 : k * step); // the values of np.linspace(0, 1, bins + 1)
  for (let i = 0; i < n; i += 1) {
    // searchsorted(edges, p, side="right") - 1, clipped: count the inner edges that are <= p
    let b = 0;
    while (b + 1 < bins && edge(b + 1) <= conf[i]) b += 1;
    sumConf[b] += conf[i];
    sumAcc[b] += right[i];
    count[b] += 1;
    brier += (conf[i] - right[i]) ** 2;
  }
  const data = { conf: [], acc: [], count };
  let ece = 0;
  for (let b = 0; b < bins; b += 1) {
    const meanConf = count[b] ? sumConf[b] / count[b] : 0;
    const acc = count[b] ? sumAcc[b] / count[b] : 0;
    data.conf.push(meanConf);
    data.acc.push(acc);
    if (n) ece += (count[b] / n) * Math.abs(meanConf - acc);
  }
  return { data, ece, brier: n ? brier / n : 0, populated: count.filter((c) => c > 0).length };
}

function control(labelText, input) {
  const label = el("label", "reliability-control");
  label.append(el("span", null, labelText));
  label.append(input);
  label.style.display = "inline-flex";
  label.style.gap = "0.4rem";
  label.style.alignItems = "center";
  return label;
}

function select(values, chosen) {
  const node = el("select");
  for (const value of values) {
    const option = el("option", null, String(value));
    option.value = String(value);
    if (value === chosen) option.selected = true;
    node.append(option);
  }
  return node;
}

/**
 * Mount the interactive reliability figure into a ```figure reliability``` element: a slider for over- or
 * underconfidence, the number of bins and the sample size; the diagram, ECE and Brier update live.
 */
export function mount(element, lang) {
  const s = strings(lang);
  const caption = element.querySelector("figcaption");
  const box = el("div", "reliability-figure");
  const controls = el("div", "reliability-controls");
  controls.style.display = "flex";
  controls.style.flexWrap = "wrap";
  controls.style.gap = "1rem";
  controls.style.alignItems = "center";

  const slider = el("input");
  slider.type = "range";
  slider.min = "0.4";
  slider.max = "2.5";
  slider.step = "0.1";
  slider.value = "1.6";
  const sliderState = el("output", null);
  const binsSelect = select([5, 10, 15, 20], 10);
  const sizeSelect = select([100, 1000, 10000], 1000);
  const again = el("button", null, s.resample);
  again.type = "button";
  controls.append(control(s.sliderLabel, slider), sliderState, control(s.binsLabel, binsSelect),
    control(s.sizeLabel, sizeSelect), again);

  const stats = el("p", "reliability-stats");
  stats.setAttribute("aria-live", "polite");
  stats.dir = lang === "ar" ? "rtl" : "ltr";
  const plotBox = el("div", "reliability-figure-plot");
  plotBox.dir = "ltr";
  const details = el("details", "reliability-data");
  box.append(controls, stats, plotBox, details);
  if (caption) element.insertBefore(box, caption);
  else element.append(box);

  let seed = 73;
  const update = () => {
    const sharpness = Number(slider.value);
    const bins = Number(binsSelect.value);
    const n = Number(sizeSelect.value);
    const word = sharpness > 1.05 ? s.over : sharpness < 0.95 ? s.under : s.calibrated;
    sliderState.textContent = `${sharpness.toFixed(1)} (${word})`;
    const { conf, right } = simulate(n, sharpness, seed);
    const result = summarize(conf, right, bins);
    stats.textContent = fill(s.stats, {
      ece: result.ece.toFixed(3), brier: result.brier.toFixed(3), populated: result.populated, bins,
    });
    plotBox.replaceChildren(drawDiagram(result.data, s.figureTitle, lang));
    details.replaceChildren(el("summary", null, s.showTable), dataTable(null, result.data, lang));
  };
  slider.addEventListener("input", update);
  binsSelect.addEventListener("change", update);
  sizeSelect.addEventListener("change", update);
  again.addEventListener("click", () => {
    seed += 1;
    update();
  });
  update();
  return box;
}
