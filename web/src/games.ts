/**
 * The game screens the client knows, by game id. A game without an entry is played on the shell's generic
 * screen (its legal actions as a list of buttons with their text). One import and one line per game.
 */
import { KnightHawksScreen } from "./knighthawks/screen";
import type { ScreenFactory } from "./shell/screen";

export const SCREENS: Record<string, ScreenFactory> = {
  knighthawks: () => new KnightHawksScreen(),
};
