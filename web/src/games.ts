/**
 * The game screens the client knows, by game id. A game without an entry is played on the shell's generic
 * screen (its legal actions as a list of buttons with their text). One import and one line per game.
 */
import { DeepSpaceScreen } from "./deepspace/screen";
import { KnightHawksScreen } from "./knighthawks/screen";
import { MiningScreen } from "./mining/screen";
import type { ScreenFactory } from "./shell/screen";
import { TacticalScreen } from "./tactical/screen";

export const SCREENS: Record<string, ScreenFactory> = {
  tactical: () => new TacticalScreen(),
  mining: () => new MiningScreen(),
  deepspace: () => new DeepSpaceScreen(),
  knighthawks: () => new KnightHawksScreen(),
};
