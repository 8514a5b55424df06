/**
 * The tactical board's palette and body looks. Cyan and orange belong to the two sides (yours, the enemy's) and
 * appear nowhere else; neutral bases are green as the help text's legend says. Presentation only.
 */
import type { BodyKind } from "./boardData";

export const SIDE = {
  own: "#3ee0ff", // cyan: yours
  enemy: "#ff9a3c", // orange: the enemy's
  neutral: "#5fe39a", // green: neutral stations and bases
} as const;

export const COLORS = {
  spaceInner: "#0b1226",
  spaceOuter: "#03050b",
  offMap: "rgba(2, 3, 8, 0.55)",
  grid: "150, 175, 220",
  edge: "rgba(235, 95, 95, 0.55)",
  gravity: "244, 232, 190",
  label: "#d7dff0",
  labelMinor: "#aab5cc",
  labelHalo: "rgba(3, 5, 11, 0.9)",
  rock: "#8b8073",
  rockLight: "#b3a797",
  rockField: "160, 140, 115",
  hover: "rgba(255, 255, 255, 0.85)",
} as const;

export interface BodyLook {
  /** Gradient stops from the lit side to the dark side. */
  light: string;
  mid: string;
  dark: string;
  /** Optional rim glow (atmosphere, corona). */
  glow?: string;
  bands?: string;
}

const LOOKS: Record<string, BodyLook> = {
  Sol: { light: "#fffbe6", mid: "#ffd75e", dark: "#f0a830", glow: "255, 200, 90" },
  Mercury: { light: "#d8cfc4", mid: "#9c9187", dark: "#4d4640" },
  Venus: { light: "#fff0c8", mid: "#e3c27c", dark: "#8a6a36", glow: "240, 215, 150" },
  Terra: { light: "#9fd0ff", mid: "#2f74d0", dark: "#0f2a66", glow: "120, 180, 255" },
  Luna: { light: "#f2f2f2", mid: "#b5b5b8", dark: "#5a5a60" },
  Mars: { light: "#f0a07a", mid: "#bf4e2c", dark: "#5c1f12", glow: "220, 110, 80" },
  Ceres: { light: "#cfc6ba", mid: "#8a8075", dark: "#3f3a35" },
  Jupiter: { light: "#f6e3c4", mid: "#c9a27a", dark: "#6e4f35", glow: "230, 200, 160", bands: "rgba(120, 70, 40, 0.35)" },
  Io: { light: "#fff6b0", mid: "#e2c74a", dark: "#7d6a1c" },
  Callisto: { light: "#b9aa98", mid: "#76685a", dark: "#332c25" },
  Ganymede: { light: "#d9d4cc", mid: "#9b958b", dark: "#4a4640" },
};

const BY_KIND: Record<BodyKind, BodyLook> = {
  star: LOOKS.Sol!,
  planet: { light: "#d0d8e8", mid: "#8090a8", dark: "#303848" },
  moon: LOOKS.Luna!,
  minor: LOOKS.Ceres!,
};

export function bodyLook(name: string, kind: BodyKind): BodyLook {
  return LOOKS[name] ?? BY_KIND[kind];
}
