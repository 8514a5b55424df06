/**
 * Synthesised sound effects (Web Audio, no sound files): a few short tones and noise bursts per name, and the
 * mute switch (remembered in localStorage). The audio context is made on the first sound after a user gesture,
 * so a page that never plays one never asks for audio.
 *
 * Owns the sounds and the mute state only.
 */
import { preference, setPreference } from "./storage";

export type SoundName = "select" | "confirm" | "error" | "fire" | "hit" | "turn" | "win" | "lose";

interface Tone {
  /** Start offset in seconds, frequency in Hz (0: a noise burst), duration in seconds, peak gain, wave. */
  at: number;
  freq: number;
  dur: number;
  gain: number;
  wave?: OscillatorType;
  /** Frequency at the end (a glide). */
  to?: number;
}

const SOUNDS: Record<SoundName, Tone[]> = {
  select: [{ at: 0, freq: 880, dur: 0.05, gain: 0.08, wave: "triangle" }],
  confirm: [
    { at: 0, freq: 660, dur: 0.07, gain: 0.09, wave: "triangle" },
    { at: 0.07, freq: 990, dur: 0.09, gain: 0.09, wave: "triangle" },
  ],
  error: [{ at: 0, freq: 220, dur: 0.18, gain: 0.1, wave: "square", to: 160 }],
  fire: [
    { at: 0, freq: 0, dur: 0.25, gain: 0.16 },
    { at: 0, freq: 700, dur: 0.22, gain: 0.06, wave: "sawtooth", to: 120 },
  ],
  hit: [
    { at: 0, freq: 0, dur: 0.4, gain: 0.22 },
    { at: 0, freq: 90, dur: 0.35, gain: 0.12, wave: "sine", to: 40 },
  ],
  turn: [
    { at: 0, freq: 523, dur: 0.09, gain: 0.07, wave: "sine" },
    { at: 0.1, freq: 784, dur: 0.14, gain: 0.07, wave: "sine" },
  ],
  win: [
    { at: 0, freq: 523, dur: 0.14, gain: 0.09, wave: "triangle" },
    { at: 0.14, freq: 659, dur: 0.14, gain: 0.09, wave: "triangle" },
    { at: 0.28, freq: 784, dur: 0.14, gain: 0.09, wave: "triangle" },
    { at: 0.42, freq: 1047, dur: 0.4, gain: 0.1, wave: "triangle" },
  ],
  lose: [
    { at: 0, freq: 392, dur: 0.22, gain: 0.09, wave: "triangle" },
    { at: 0.22, freq: 330, dur: 0.22, gain: 0.09, wave: "triangle" },
    { at: 0.44, freq: 262, dur: 0.5, gain: 0.09, wave: "triangle", to: 220 },
  ],
};

export class Sounds {
  muted = preference("muted", false);
  /** How many sounds were asked for and played (for the tests: the page cannot be listened to). */
  played: { name: SoundName; muted: boolean }[] = [];
  private ctx: AudioContext | null = null;

  toggle(): boolean {
    this.muted = !this.muted;
    setPreference("muted", this.muted);
    return this.muted;
  }

  play(name: SoundName): void {
    this.played.push({ name, muted: this.muted });
    if (this.played.length > 200) this.played.shift();
    if (this.muted || !(name in SOUNDS)) return;
    // browsers refuse audio before the person touched the page (a reload): stay silent until then
    const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation;
    if (this.ctx === null && activation && !activation.hasBeenActive) return;
    try {
      this.ctx ??= new AudioContext();
      if (this.ctx.state === "suspended") void this.ctx.resume();
      const t0 = this.ctx.currentTime + 0.01;
      for (const tone of SOUNDS[name]) this.tone(this.ctx, tone, t0);
    } catch {
      /* no audio device: silence */
    }
  }

  private tone(ctx: AudioContext, t: Tone, t0: number): void {
    const start = t0 + t.at;
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(t.gain, start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + t.dur);
    gain.connect(ctx.destination);
    let src: AudioScheduledSourceNode;
    if (t.freq === 0) {
      const len = Math.ceil(ctx.sampleRate * t.dur);
      const buf = ctx.createBuffer(1, len, ctx.sampleRate);
      const data = buf.getChannelData(0);
      for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / len);
      const noise = ctx.createBufferSource();
      noise.buffer = buf;
      src = noise;
    } else {
      const osc = ctx.createOscillator();
      osc.type = t.wave ?? "sine";
      osc.frequency.setValueAtTime(t.freq, start);
      if (t.to) osc.frequency.exponentialRampToValueAtTime(t.to, start + t.dur);
      src = osc;
    }
    src.connect(gain);
    src.start(start);
    src.stop(start + t.dur + 0.02);
  }
}
