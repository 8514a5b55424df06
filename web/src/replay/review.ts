/**
 * The game review on the replay page: "Review this game" asks the server for the review of the finished match
 * (`POST /rooms/{code}/review?match=N`), follows its progress (`GET` the same path), then marks the decisions on
 * the replay's timeline, coloured by grade, lists the key moments (a button each, to jump there), and at the
 * position shown says in words what each player deciding there played, what the hard bot would play and both
 * estimated chances to win. The review itself is the server's (docs/review.md); this module only shows it.
 *
 * Owns the review panel and the timeline marks of the replay page only.
 */
import { botName } from "../shell/api";
import { button, el } from "../shell/dom";

export interface ReviewDecision {
  seat: number;
  step: number;
  index: number;
  turn: number | null;
  played_text: string;
  best_text: string | null;
  same: boolean;
  forced: boolean;
  valued: boolean | null;
  value_played: number | null;
  value_best: number | null;
  loss: number | null;
  se: number | null;
  rollouts: number;
  grade: string;
  failed?: string;
}

export interface ReviewSummary {
  seat: number;
  choices: number;
  same_as_reviewer: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
}

export interface Review {
  reviewer: string;
  rollout: string;
  budget: { rollouts: number };
  summary: ReviewSummary[];
  decisions: ReviewDecision[];
}

interface ReviewStatus {
  status: "none" | "queued" | "running" | "done" | "failed";
  done: number;
  total: number | null;
  review?: Review;
  error?: string;
  message?: string;
}

/** What the replay page gives the review: its positions (steps), the seats' names, a way to jump to a position. */
export interface ReviewHost {
  code: string;
  match: number;
  positions: number[];
  seatName: (seat: number) => string;
  go: (index: number) => void;
  say: (text: string, kind?: "info" | "warn" | "error") => void;
}

export const GRADE_WORDS: Record<string, string> = { blunder: "Blunder", mistake: "Mistake", inaccuracy: "Inaccuracy", good: "Good" };
const POLL_MS = 800;

const pct = (v: number | null): string => (v === null ? "?" : `${Math.round(v * 100)}%`);

async function call(host: ReviewHost, method: "GET" | "POST"): Promise<ReviewStatus> {
  const url = `/rooms/${encodeURIComponent(host.code)}/review?match=${host.match}`;
  const r = method === "POST" ? await fetch(url, { method, headers: { "content-type": "application/json" }, body: "{}" }) : await fetch(url);
  const data = (await r.json().catch(() => ({}))) as ReviewStatus;
  if (!r.ok) throw new Error(data.message ?? `the server answered ${r.status}`);
  return data;
}

/** The index of the last position at or before ``step`` (a decision is made at the position its node starts). */
export function positionOf(positions: number[], step: number): number {
  let lo = 0;
  let hi = positions.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (positions[mid]! <= step) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A bot spec as a player reads it in the review: "bot:hard" -> "the hard bot". */
export function botWords(spec: string): string {
  return `the ${botName(spec).toLowerCase()}`;
}

/** One decision in words: a title (the grade, who, when) and what was played, what the reviewer (a bot spec,
 *  "bot:hard") would play, the chances. */
export function decisionWords(d: ReviewDecision, name: string, reviewerSpec: string): { title: string; text: string } {
  const reviewer = botWords(reviewerSpec);
  const when = `${d.turn !== null ? `turn ${d.turn}, ` : ""}step ${d.step}`;
  if (d.failed) return { title: `${name} · ${when}`, text: `Played ${d.played_text}; this decision could not be reviewed.` };
  if (d.forced) return { title: `${name} · ${when}`, text: `One choice: ${d.played_text}.` };
  if (d.same) return { title: `${name} · ${when}`, text: `Played ${d.played_text}, as ${reviewer} would.` };
  const title = `${GRADE_WORDS[d.grade] ?? d.grade} · ${name} · ${when}`;
  const head = `Played ${d.played_text}; ${reviewer} would play ${d.best_text}.`;
  if (!d.valued) return { title, text: `${head} Not valued (the review's budget was spent).` };
  const se = d.se !== null ? ` (± ${Math.round(d.se * 100)} points, from ${d.rollouts} games each)` : "";
  return { title, text: `${head} Chance to win: ${pct(d.value_played)} as played, ${pct(d.value_best)} with ${reviewer}'s choice${se}.` };
}

export class ReviewPanel {
  readonly box: HTMLElement;
  readonly marks: HTMLElement;
  private readonly host: ReviewHost;
  private readonly askBtn: HTMLButtonElement;
  private readonly progress: HTMLProgressElement;
  private readonly note: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly here: HTMLElement;
  private readonly moments: HTMLElement;
  private review: Review | null = null;
  private index = 0;
  private stopped = false;

  constructor(host: ReviewHost) {
    this.host = host;
    this.box = el("section", "review");
    this.box.setAttribute("aria-label", "Game review");
    this.box.append(el("h2", "", "Game review"));
    this.askBtn = button("Review this game", () => void this.ask(), "btn small primary review-ask",
      "Compare every decision with what the hard bot would play, and estimate the chances to win");
    this.progress = el("progress", "review-progress");
    this.progress.hidden = true;
    this.progress.setAttribute("aria-label", "Review progress");
    this.note = el("p", "review-note dim", "Each player's decisions, replayed from what they knew, compared with the hard bot's.");
    this.note.setAttribute("aria-live", "polite");
    this.summary = el("ul", "review-summary");
    this.here = el("div", "review-here");
    this.here.setAttribute("aria-live", "polite");
    this.moments = el("ol", "review-moments");
    this.moments.setAttribute("aria-label", "Key moments");
    this.box.append(this.askBtn, this.progress, this.note, this.summary, this.here, this.moments);
    this.marks = el("div", "review-marks");
    this.marks.setAttribute("aria-hidden", "true"); // the key moments list is the accessible way there
    void this.resume();
  }

  /** A review already asked for (by anyone) shows at once, or is followed if it is still running. */
  private async resume(): Promise<void> {
    try {
      const s = await call(this.host, "GET");
      if (s.status === "done" || s.status === "queued" || s.status === "running") this.follow(s);
    } catch {
      /* the button stays: asking will say what is wrong */
    }
  }

  private async ask(): Promise<void> {
    this.askBtn.disabled = true;
    try {
      this.follow(await call(this.host, "POST"));
    } catch (e) {
      this.askBtn.disabled = false;
      const why = e instanceof Error ? e.message : String(e);
      this.note.textContent = `The review could not start: ${why}`;
      this.host.say(`The review could not start: ${why}`, "error");
    }
  }

  private follow(s: ReviewStatus): void {
    if (this.stopped) return;
    if (s.status === "done" && s.review) {
      this.show(s.review);
      return;
    }
    if (s.status === "failed") {
      this.askBtn.disabled = false;
      this.progress.hidden = true;
      this.note.textContent = `The review failed: ${s.error ?? "no reason given"}. Ask again to retry.`;
      return;
    }
    this.askBtn.hidden = true;
    this.progress.hidden = false;
    if (s.total) {
      this.progress.max = s.total;
      this.progress.value = s.done;
      this.note.textContent = `Reviewing: ${s.done} of ${s.total} decisions…`;
    } else {
      this.progress.removeAttribute("value");
      this.note.textContent = s.status === "queued" ? "Waiting for a bot worker…" : "Reviewing…";
    }
    document.documentElement.dataset.review = "running";
    setTimeout(() => {
      call(this.host, "GET").then((n) => this.follow(n), (e) => {
        this.note.textContent = `Lost track of the review: ${e instanceof Error ? e.message : String(e)}`;
        this.askBtn.hidden = false;
        this.askBtn.disabled = false;
      });
    }, POLL_MS);
  }

  private show(review: Review): void {
    this.review = review;
    this.box.parentElement?.classList.add("review-ready"); // the panel now takes its share of the side
    this.askBtn.hidden = true;
    this.progress.hidden = true;
    const n = review.budget.rollouts;
    this.note.textContent = `Compared with ${botWords(review.reviewer)}; a chance to win is the share of ${n} games played on by ${botWords(review.rollout)} won from that choice, in worlds sampled from what the player knew.`;
    this.summary.replaceChildren(...review.summary.map((s) => {
      const li = el("li");
      const words = [`${s.same_as_reviewer} of ${s.choices} choices as ${botWords(review.reviewer)}`];
      for (const [k, one, many] of [["inaccuracies", "inaccuracy", "inaccuracies"], ["mistakes", "mistake", "mistakes"], ["blunders", "blunder", "blunders"]] as const) {
        words.push(`${s[k]} ${s[k] === 1 ? one : many}`);
      }
      li.append(el("strong", "", this.host.seatName(s.seat)), document.createTextNode(`: ${words.join(", ")}`));
      return li;
    }));
    const marked = review.decisions.filter((d) => d.grade !== "good");
    const last = Math.max(1, this.host.positions.length - 1);
    this.marks.replaceChildren(...marked.map((d) => {
      const at = positionOf(this.host.positions, d.step);
      const m = el("span", `review-mark grade-${d.grade}`);
      m.style.left = `calc(8px + (100% - 16px) * ${at / last})`;
      m.title = `${GRADE_WORDS[d.grade]}: ${this.host.seatName(d.seat)}, step ${d.step}`;
      m.dataset.step = String(d.step);
      m.addEventListener("click", () => this.host.go(at));
      return m;
    }));
    this.moments.replaceChildren(...(marked.length ? marked.map((d) => {
      const li = el("li");
      const at = positionOf(this.host.positions, d.step);
      const b = button("", () => this.host.go(at), `btn small review-moment grade-${d.grade}`, "Go to this position");
      b.append(el("span", "review-dot"), document.createTextNode(`${GRADE_WORDS[d.grade]} · ${this.host.seatName(d.seat)} · step ${d.step}`));
      li.append(b);
      return li;
    }) : [el("li", "dim", "No inaccuracy, mistake or blunder was found.")]));
    document.documentElement.dataset.review = "done";
    this.at(this.index);
    this.host.say(`Review ready: ${marked.length} marked decision${marked.length === 1 ? "" : "s"} on the timeline.`);
  }

  /** The replay shows position ``index``: say what was decided there. */
  at(index: number): void {
    this.index = index;
    const review = this.review;
    if (!review) return;
    const step = this.host.positions[index];
    const here = review.decisions.filter((d) => positionOf(this.host.positions, d.step) === index && d.step === step);
    if (!here.length) {
      this.here.replaceChildren(el("p", "dim", `Step ${step}: nobody decided here (the next position shows what follows).`));
      this.here.dataset.grade = "";
      this.reveal();
      return;
    }
    const worst = here.reduce((a, d) => (rank(d.grade) > rank(a.grade) ? d : a), here[0]!);
    this.here.dataset.grade = worst.grade;
    this.here.replaceChildren(...here.map((d) => {
      const words = decisionWords(d, this.host.seatName(d.seat), review.reviewer);
      const p = el("p", `review-words grade-${d.grade}`);
      p.append(el("strong", "", words.title), el("br"), document.createTextNode(words.text));
      return p;
    }));
    this.reveal();
  }

  /** Scroll the panel (not the page) so the words of the position shown start in view: on a phone the panel is
   *  short, and a moment's button at its foot would otherwise leave the words' first lines above its top. */
  private reveal(): void {
    const box = this.box.getBoundingClientRect();
    const here = this.here.getBoundingClientRect();
    if (here.top < box.top || here.bottom > box.bottom) this.box.scrollTop += here.top - box.top - 4;
  }

  stop(): void {
    this.stopped = true;
  }
}

function rank(grade: string): number {
  return ["good", "inaccuracy", "mistake", "blunder"].indexOf(grade);
}
