/**
 * The mining screen's palette and the short codes printed on tiles and counters. Players' rocket colours are
 * kept apart from the minerals' (minerals are printed with a letter too, so colour is never the only cue).
 */
/** The shell's first four seat colours (`SEAT_COLOURS` in shell/palette.ts), so the seat chips above the screen and
 *  the rockets on the field agree. */
export const PLAYER_COLOURS = ["#3fd0ff", "#ff9a3c", "#7bdc6a", "#c58bff"] as const;
export const PLAYER_NAMES = ["cyan", "orange", "green", "violet"] as const;

export const MINERAL_STYLE: Record<string, { fill: string; ink: string; code: string }> = {
  alphatite: { fill: "#d94a4a", ink: "#fff", code: "A" },
  betamite: { fill: "#4b6fe0", ink: "#fff", code: "B" },
  gammatite: { fill: "#e6c229", ink: "#1a1400", code: "G" },
  deltamite: { fill: "#1f8f86", ink: "#fff", code: "D" },
  omnidium: { fill: "#e9e6f5", ink: "#3a2a66", code: "O" },
};
export const INCIDENT_STYLE: Record<string, { fill: string; ink: string; code: string }> = {
  // dark violet with pink: never the green of the alien token (BOARD.alien)
  alien_encounter: { fill: "#331446", ink: "#ffb3ec", code: "AE" },
  mineral_scan: { fill: "#7b5ad6", ink: "#fff", code: "MS" },
  sabotage: { fill: "#8a2d2d", ink: "#fff", code: "SB" },
  rocket_acquisition: { fill: "#5a7490", ink: "#fff", code: "RA" },
  pirate_attack: { fill: "#1d1d1d", ink: "#ffd24a", code: "PA" },
  meteor_storm: { fill: "#a0522d", ink: "#fff", code: "MT" },
};
export const kindStyle = (kind: string): { fill: string; ink: string; code: string } =>
  MINERAL_STYLE[kind] ?? INCIDENT_STYLE[kind] ?? { fill: "#666", ink: "#fff", code: "?" };

export const playerColour = (seat: number): string => PLAYER_COLOURS[seat % PLAYER_COLOURS.length] ?? "#ccc";

export const BOARD = {
  space: "#050812",
  cell: "#1b2233",
  cellEdge: "#2d3850",
  back: "#39465f",
  backDark: "#252f44",
  station: "#8fa3c4",
  highlight: "#ffe066",
  selected: "#ffffff",
  frozen: "#9fe8ff",
  alien: "#3bd16f",
  seenMine: "#ffffff",
  text: "#dfe6f3",
  dim: "#8a96ad",
};
