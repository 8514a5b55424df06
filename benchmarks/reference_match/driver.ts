// Head to head on the reference Delta-V's own engine (docs/bots-tactical.md, "Head to head on the reference's
// engine"). The referee is the reference's engine (TypeScript, imported by path from a checkout given with
// --reference); one seat is the reference's AI called as its own simulator (scripts/simulate-ai.ts) calls it,
// the other is our bot, reached through bridge.py (a persistent Python process, one JSON line each way): for
// each of our phases it gets the state as our seat may see it (the reference's filterStateForPlayer) and
// answers the reference's order for that phase. Seats swap every other game (our seat = game index mod 2);
// game i's seed is derived from --seed as the reference's simulator derives it, and its start (player order,
// starting player) follows the simulator's rules. An order the reference refuses counts as an invalid action
// of its side and the phase is skipped with the engine's own skip (so a game never hangs).
//
// Run from the reference checkout (its tsx and node_modules):
//   cd REF && npx tsx /path/to/deltav/benchmarks/reference_match/driver.ts --reference REF \
//     --scenario duel --games 200 --seed 1 --python /path/to/python --out games.json
// It writes one record per game to --out; benchmarks/reference_match/report.py sums them up. --from I starts at
// game I (the same seeds and seats: a game of a run replays alone); --check replays each player-turn's movement
// in our engine (bridge op "check"); --ruling NAME=VALUE overrides one of our rules options.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

type Json = any;

interface Args {
  reference: string;
  scenario: string;
  games: number;
  seed: number;
  python: string;
  bridge: string;
  out: string | null;
  spec: string;
  refDifficulty: string;
  quiet: boolean;
  check: boolean;
  rulings: Record<string, unknown>;
  from: number;
}

const SCENARIO_KEYS: Record<string, string> = {
  biplanetary: 'biplanetary',
  duel: 'duel',
  blockade: 'blockade',
  grand_tour: 'grandTour',
  escape: 'escape',
  evacuation: 'evacuation',
  convoy: 'convoy',
  fleet_action: 'fleetAction',
  interplanetary_war: 'interplanetaryWar',
};

// The reference simulator's start rules (scripts/simulate-ai.ts at 980bb957): these scenarios draw the
// starting player from the game's rng after creation; Bi-Planetary also swaps the two players' definitions
// when bit 0 of the seed is set.
const DRAW_START = new Set(['biplanetary', 'interplanetaryWar', 'fleetAction']);
const SWAP_SIDES = new Set(['biplanetary']);
const PHASE_LIMIT = 1000;

const parseArgs = (argv: string[]): Args => {
  const here = path.dirname(new URL(import.meta.url).pathname);
  const args: Args = {
    reference: '',
    scenario: 'duel',
    games: 10,
    seed: 1,
    python: 'python3',
    bridge: path.join(here, 'bridge.py'),
    out: null,
    spec: 'hard',
    refDifficulty: 'hard',
    quiet: false,
    check: false,
    rulings: {},
    from: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--reference') args.reference = next();
    else if (a === '--scenario') args.scenario = next();
    else if (a === '--games') args.games = Number(next());
    else if (a === '--seed') args.seed = Number(next());
    else if (a === '--python') args.python = next();
    else if (a === '--bridge') args.bridge = next();
    else if (a === '--out') args.out = next();
    else if (a === '--spec') args.spec = next();
    else if (a === '--ref-difficulty') args.refDifficulty = next();
    else if (a === '--quiet') args.quiet = true;
    else if (a === '--check') args.check = true;
    else if (a === '--from') args.from = Number(next());
    else if (a === '--ruling') {
      const [name, value] = next().split('=', 2);
      args.rulings[name] = value === 'true' ? true : value === 'false' ? false : value;
    }
    else throw new Error(`unknown argument ${a}`);
  }
  if (!args.reference) throw new Error('--reference DIR (a checkout of the reference Delta-V) is required');
  if (!(args.scenario in SCENARIO_KEYS)) throw new Error(`unknown scenario ${args.scenario}`);
  if (!Number.isInteger(args.games) || args.games < 1) throw new Error('--games must be a positive integer');
  return args;
};

// Seed i of a run, as the reference's simulator derives it (golden-ratio step, 32-bit).
const deriveGameSeed = (base: number, index: number): number => (base + Math.imul(index + 1, 0x9e3779b9)) | 0;

const cpuMs = (start: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};

class Bridge {
  private pending: ((line: string) => void)[] = [];
  private proc;
  constructor(python: string, script: string) {
    this.proc = spawn(python, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const rl = readline.createInterface({ input: this.proc.stdout });
    rl.on('line', (line) => {
      const resolve = this.pending.shift();
      if (resolve) resolve(line);
    });
    this.proc.on('exit', (code) => {
      for (const resolve of this.pending.splice(0)) resolve(JSON.stringify({ error: `bridge exited (${code})` }));
    });
  }
  ask(req: Json): Promise<Json> {
    return new Promise((resolve) => {
      this.pending.push((line) => resolve(JSON.parse(line)));
      this.proc.stdin.write(`${JSON.stringify(req)}\n`);
    });
  }
  close(): void {
    this.proc.stdin.write(`${JSON.stringify({ op: 'quit' })}\n`);
    this.proc.stdin.end();
  }
}

const main = async () => {
  const args = parseArgs(process.argv.slice(2));
  const ref = path.resolve(args.reference);
  const load = (p: string) => import(path.join(ref, 'src/shared', p));
  const ai = await load('ai.ts');
  const engine = await load('engine/game-engine.ts');
  const filter = await load('engine/resolve-movement.ts');
  const mapData = await load('map-data.ts');
  const prng = await load('prng.ts');
  const ids = await load('ids.ts');
  const key = SCENARIO_KEYS[args.scenario];
  const bridge = new Bridge(args.python, args.bridge);
  const records: Json[] = [];

  for (let i = args.from; i < args.games; i++) {
    const gameSeed = deriveGameSeed(args.seed, i);
    const ourSeat = i % 2;
    const side = (p: number) => (p === ourSeat ? 'ours' : 'ref');
    const base = mapData.SCENARIOS[key];
    const scenario = SWAP_SIDES.has(key) && ((gameSeed >>> 0) & 1) === 1
      ? { ...structuredClone(base), players: [structuredClone(base.players[1]), structuredClone(base.players[0])] }
      : base;
    const map = mapData.buildSolarSystemMap();
    const rng = prng.mulberry32(gameSeed);
    const created = engine.createGame(scenario, map, ids.asGameId(`h2h-${key}-${gameSeed >>> 0}`), mapData.findBaseHex,
      rng, key);
    if (!created.ok) throw new Error(`createGame: ${created.error.message}`);
    let state: Json = created.value;
    if (DRAW_START.has(key)) state.activePlayer = rng() < 0.5 ? 0 : 1;
    const firstPlayer = state.activePlayer;
    const answer = await bridge.ask({
      op: 'new_game', seat: ourSeat, seed: gameSeed >>> 0, spec: args.spec, rulings: args.rulings,
    });
    if (answer.error) throw new Error(`bridge: ${answer.error}`);

    const rec: Json = {
      index: i, seed: gameSeed >>> 0, ourSeat, firstPlayer, winner: null, reason: null, turns: 0, timeout: false,
      invalid: { ours: {}, ref: {} }, errors: [], lost: { ours: {}, ref: {} },
      cpu: { ours: { ms: 0, playerTurns: 0, decisions: 0 }, ref: { ms: 0, playerTurns: 0 } },
      checked: 0, divergences: [],
    };
    // --check: each player-turn's movement replayed in our engine (bridge op "check") and compared.
    let move: Json = null;
    const checkMove = async (launches: Json[], emplacements: Json[]) => {
      if (!args.check || move === null) return;
      const move0 = move;
      const res = await bridge.ask({ op: 'check', pre: move.pre, orders: move.orders, launches, emplacements, post: state,
        rulings: args.rulings });
      move = null;
      rec.checked++;
      if (res.error) rec.divergences.push(`check failed: ${res.error}`);
      else {
        rec.divergences.push(...res.divergences);
        if (res.divergences.length > 0 && (rec.divergedStates ??= []).length < 3) {
          rec.divergedStates.push({ pre: move0.pre, orders: move0.orders, launches, emplacements, post: state });
        }
      }
    };
    const invalid = (who: string, phase: string, message: string) => {
      rec.invalid[who][phase] = (rec.invalid[who][phase] ?? 0) + 1;
      if (rec.errors.length < 10) rec.errors.push({ who, phase, turn: state.turnNumber, message });
    };
    const askOurs = async (phase: string): Promise<Json | null> => {
      const seen = filter.filterStateForPlayer(state, ourSeat);
      const res = await bridge.ask({ op: 'decide', seat: ourSeat, state: seen });
      if (res.error) {
        invalid('ours', phase, `bridge: ${res.error}`);
        return null;
      }
      rec.cpu.ours.ms += res.cpu_ms;
      rec.cpu.ours.decisions += res.decisions;
      if (res.action.type !== phase) {
        invalid('ours', phase, `answered a ${res.action.type} order in the ${phase} phase`);
        return null;
      }
      return res.action;
    };
    // Apply a result; an engine refusal counts against `who` and falls back to `fallback` (the engine's skip).
    // The first refused orders of a game are kept with the state they were given in (refused).
    const apply = (who: string, phase: string, result: Json, fallback: () => Json, order?: Json) => {
      if ('error' in result) {
        invalid(who, phase, result.error.message);
        if (order !== undefined && (rec.refused ??= []).length < 2) rec.refused.push({ who, phase, order, state });
        const again = fallback();
        if ('error' in again) throw new Error(`fallback refused: ${again.error.message}`);
        state = again.state;
      } else {
        state = result.state;
      }
    };

    // Fleet building: both seats choose from the same starting state (neither sees the other's purchases).
    if (state.phase === 'fleetBuilding') {
      const purchases: Json[] = [[], []];
      for (const p of [0, 1]) {
        if (p === ourSeat) {
          const action = await askOurs('fleet');
          purchases[p] = action ? action.purchases : [];
        } else {
          purchases[p] = ai.buildAIFleetPurchases(state, p, args.refDifficulty, scenario.availableFleetPurchases);
        }
      }
      for (const p of [0, 1]) {
        const result = engine.processFleetReady(state, p, purchases[p], map);
        if ('error' in result) {
          invalid(side(p), 'fleet', String(result.error.message ?? result.error));
          const again = engine.processFleetReady(state, p, [], map);
          if ('error' in again) throw new Error('empty fleet refused');
          state = again.state;
        } else {
          state = result.state;
        }
      }
    }

    let phaseLimit = PHASE_LIMIT;
    let lastActor: string | null = null;
    const acted = (who: string) => {
      if (lastActor !== who) rec.cpu[who].playerTurns++;
      lastActor = who;
    };
    while (state.phase !== 'gameOver' && phaseLimit > 0) {
      const p = state.activePlayer;
      const who = side(p);
      const phase = state.phase;
      if (phase === 'astrogation') {
        acted(who);
        let orders: Json[];
        if (who === 'ref') {
          const t = process.cpuUsage();
          orders = ai.aiAstrogation(state, p, map, args.refDifficulty, rng);
          rec.cpu.ref.ms += cpuMs(t);
        } else {
          orders = (await askOurs('astrogation'))?.orders ?? [];
        }
        const pre = state;
        const result = engine.processAstrogation(state, p, orders, map, rng);
        apply(who, phase, result, () => engine.processAstrogation(state, p, [], map, rng));
        move = { pre, orders: 'error' in result ? [] : orders };
        if (state.phase !== 'ordnance') await checkMove([], []);
      } else if (phase === 'ordnance') {
        acted(who);
        let launches: Json[] = [];
        let emplacements: Json[] = [];
        if (who === 'ref') {
          const t = process.cpuUsage();
          launches = ai.aiOrdnance(state, p, map, args.refDifficulty, rng);
          rec.cpu.ref.ms += cpuMs(t);
        } else {
          const action = await askOurs('ordnance');
          launches = action?.launches ?? [];
          emplacements = action?.emplacements ?? [];
        }
        if (emplacements.length > 0) {
          const result = engine.processEmplacement(state, p, emplacements, map);
          if ('error' in result) {
            invalid(who, phase, result.error.message);
            emplacements = [];
          } else state = result.state;
        }
        if (state.phase === 'ordnance' && state.activePlayer === p) {
          const result = launches.length > 0
            ? engine.processOrdnance(state, p, launches, map, rng)
            : engine.skipOrdnance(state, p, map, rng);
          apply(who, phase, result, () => engine.skipOrdnance(state, p, map, rng));
          if ('error' in result) launches = [];
        }
        await checkMove(launches, emplacements);
      } else if (phase === 'logistics') {
        acted(who);
        let transfers: Json[];
        if (who === 'ref') {
          const t = process.cpuUsage();
          transfers = ai.aiLogistics(state, p, map, args.refDifficulty);
          rec.cpu.ref.ms += cpuMs(t);
        } else {
          transfers = (await askOurs('logistics'))?.transfers ?? [];
        }
        apply(who, phase, transfers.length > 0
          ? engine.processLogistics(state, p, transfers, map)
          : engine.skipLogistics(state, p, map), () => engine.skipLogistics(state, p, map));
      } else if (phase === 'combat') {
        const pre = engine.beginCombatPhase(state, p, map, rng);
        if ('error' in pre) invalid(who, phase, pre.error.message);
        else state = pre.state;
        if (state.phase === 'combat') {
          acted(who);
          let attacks: Json[];
          if (who === 'ref') {
            const t = process.cpuUsage();
            attacks = ai.aiCombat(state, p, map, args.refDifficulty);
            rec.cpu.ref.ms += cpuMs(t);
          } else {
            attacks = (await askOurs('combat'))?.attacks ?? [];
          }
          apply(who, phase, attacks.length > 0
            ? engine.processCombat(state, p, attacks, map, rng)
            : engine.skipCombat(state, p, map, rng), () => engine.skipCombat(state, p, map, rng), attacks);
        }
      } else {
        throw new Error(`unexpected phase ${phase}`);
      }
      phaseLimit--;
    }

    rec.turns = state.turnNumber;
    if (state.phase !== 'gameOver') {
      rec.timeout = true;
      rec.reason = 'phase limit';
    } else {
      rec.winner = state.outcome?.winner === undefined || state.outcome?.winner === null
        ? null : side(state.outcome.winner);
      rec.reason = state.outcome?.reason ?? null;
    }
    for (const s of state.ships) {
      if (s.lifecycle !== 'destroyed') continue;
      const cause = s.deathCause ?? 'unknown';
      const who = side(s.originalOwner ?? s.owner);
      rec.lost[who][cause] = (rec.lost[who][cause] ?? 0) + 1;
    }
    rec.visited = {
      ours: state.players[ourSeat].visitedBodies?.length ?? 0,
      ref: state.players[1 - ourSeat].visitedBodies?.length ?? 0,
    };
    records.push(rec);
    if (!args.quiet) {
      process.stderr.write(`game ${i + 1}/${args.games} seed ${rec.seed} ours=P${ourSeat}: ` +
        `${rec.winner ?? 'draw'} (${rec.reason}), turn ${rec.turns}\n`);
    }
    if (args.out) writeFileSync(args.out, JSON.stringify({ scenario: args.scenario, key, args, games: records }));
  }
  bridge.close();
  const doc = { scenario: args.scenario, key, args, games: records };
  if (args.out) writeFileSync(args.out, JSON.stringify(doc));
  else process.stdout.write(`${JSON.stringify(doc)}\n`);
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
