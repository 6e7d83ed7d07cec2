/* A plain C bitboard perft of Dou Shou Qi under the `standard` preset (docs/rules.md):
 * the yardstick `benchmarks/bench_perft_c.py` compiles (gcc -O2) and times beside
 * `dsq perft`.
 *
 * Rules: one step up/down/left/right; no piece enters its own den; only the rat enters
 * water; lion and tiger jump across a river both ways, blocked by any rat on the path;
 * captures by strength (rat 1 .. elephant 8), a rat takes an elephant and an elephant
 * may not take a rat, a rat in water and a piece on land cannot capture each other, a
 * piece in an enemy trap cannot capture and a piece in its owner's enemy's trap is
 * taken by anything. A game ends on a den entry, when a side has no piece left, or after
 * 200 plies without a capture; a finished game has no moves. The last ply is counted,
 * not played (as dsq's perft does).
 *
 * Squares: (rank - 1) * 7 + file, a1 = 0 .. g9 = 62. Usage: perft DEPTH [REPEAT]; prints
 * "DEPTH NODES SECONDS" per repeat, SECONDS the CPU time of the count alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef uint64_t bb;
enum { NSQ = 63, NOSQ = 63, RAT = 1, ELEPHANT = 8, LION = 7, TIGER = 6 };
static const int DEN[2] = {3, 59};

static int water[NSQ], trap_owner[NSQ];
static int target_sq[2][2][NSQ][4]; /* [jumper][side][sq][dir] -> square or NOSQ */
static bb jump_path[NSQ][4];        /* water squares a jump crosses */
static bb reach[2][2][NSQ];         /* [jumper][side][sq] */
static int strength[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};

static int board[NSQ];
static int pos[17]; /* square of each piece code, -1 when captured */
static int side, clock_, status, count[2];

static int sq_of(int f, int r) { return r * 7 + f; }

static void init_tables(void) {
    static const int df[4] = {0, 0, -1, 1}, dr[4] = {1, -1, 0, 0};
    for (int sq = 0; sq < NSQ; sq++) {
        water[sq] = 0;
        trap_owner[sq] = -1;
    }
    for (int r = 3; r <= 5; r++) {
        water[sq_of(1, r)] = water[sq_of(2, r)] = water[sq_of(4, r)] = water[sq_of(5, r)] = 1;
    }
    trap_owner[2] = trap_owner[4] = trap_owner[10] = 0;
    trap_owner[58] = trap_owner[60] = trap_owner[52] = 1;
    for (int sq = 0; sq < NSQ; sq++) {
        int f = sq % 7, r = sq / 7;
        for (int d = 0; d < 4; d++) {
            for (int j = 0; j < 2; j++)
                for (int s = 0; s < 2; s++) target_sq[j][s][sq][d] = NOSQ;
            jump_path[sq][d] = 0;
            int nf = f + df[d], nr = r + dr[d];
            if (nf < 0 || nf >= 7 || nr < 0 || nr >= 9) continue;
            int t = sq_of(nf, nr);
            int land = -1;
            bb path = 0;
            if (!water[sq] && water[t]) {
                while (nf >= 0 && nf < 7 && nr >= 0 && nr < 9 && water[sq_of(nf, nr)]) {
                    path |= 1ULL << sq_of(nf, nr);
                    nf += df[d];
                    nr += dr[d];
                }
                if (nf >= 0 && nf < 7 && nr >= 0 && nr < 9) land = sq_of(nf, nr);
            }
            for (int j = 0; j < 2; j++)
                for (int s = 0; s < 2; s++) {
                    if (t == DEN[s]) continue;
                    if (!water[t]) {
                        target_sq[j][s][sq][d] = t;
                    } else if (j == 1 && land >= 0) {
                        target_sq[j][s][sq][d] = land;
                    }
                }
            /* the rat (jumper index 0 with water allowed) is handled by rat_reach */
            if (land >= 0) jump_path[sq][d] = path;
        }
        for (int j = 0; j < 2; j++)
            for (int s = 0; s < 2; s++) {
                reach[j][s][sq] = 0;
                for (int d = 0; d < 4; d++)
                    if (target_sq[j][s][sq][d] != NOSQ) reach[j][s][sq] |= 1ULL << target_sq[j][s][sq][d];
            }
    }
}

static bb rat_reach[2][NSQ];

static void init_rat(void) {
    static const int df[4] = {0, 0, -1, 1}, dr[4] = {1, -1, 0, 0};
    for (int s = 0; s < 2; s++)
        for (int sq = 0; sq < NSQ; sq++) {
            rat_reach[s][sq] = 0;
            for (int d = 0; d < 4; d++) {
                int nf = sq % 7 + df[d], nr = sq / 7 + dr[d];
                if (nf < 0 || nf >= 7 || nr < 0 || nr >= 9) continue;
                int t = sq_of(nf, nr);
                if (t != DEN[s]) rat_reach[s][sq] |= 1ULL << t;
            }
        }
}

static int can_capture(int acode, int asq, int dcode, int dsq) {
    int a = ((acode - 1) & 7) + 1, d = ((dcode - 1) & 7) + 1;
    int aside = (acode - 1) >> 3, dside = (dcode - 1) >> 3;
    if (water[asq] != water[dsq]) return 0;
    if (trap_owner[asq] == dside) return 0;
    if (trap_owner[dsq] == aside) return 1;
    if (a == RAT && d == ELEPHANT) return 1;
    if (a == ELEPHANT && d == RAT) return 0;
    return strength[a] >= strength[d];
}

static bb side_bits(int s) {
    bb out = 0;
    for (int a = 1; a <= 8; a++)
        if (pos[s * 8 + a] >= 0) out |= 1ULL << pos[s * 8 + a];
    return out;
}

/* The target squares of the piece `code` on `sq`. */
static inline bb targets(int code, int sq, int s, bb own, bb enemy, bb rats) {
    int a = code - s * 8;
    bb tg;
    if (a == RAT) {
        tg = rat_reach[s][sq];
    } else if (a == LION || a == TIGER) {
        tg = reach[1][s][sq];
        for (int d = 0; d < 4; d++)
            if (jump_path[sq][d] & rats) tg &= ~(1ULL << target_sq[1][s][sq][d]);
    } else {
        tg = reach[0][s][sq];
    }
    tg &= ~own;
    bb prey = tg & enemy;
    while (prey) {
        int t = __builtin_ctzll(prey);
        if (!can_capture(code, sq, board[t], t)) tg ^= 1ULL << t;
        prey &= prey - 1;
    }
    return tg;
}

/* The squares of both rats (a rat in the water blocks a river jump). */
static bb rat_bits(void) {
    bb rats = 0;
    if (pos[RAT] >= 0) rats |= 1ULL << pos[RAT];
    if (pos[8 + RAT] >= 0) rats |= 1ULL << pos[8 + RAT];
    return rats;
}

static int gen(int *out) {
    bb own = side_bits(side), enemy = side_bits(1 - side), rats = rat_bits();
    int n = 0;
    for (int a = 1; a <= 8; a++) {
        int code = side * 8 + a, sq = pos[code];
        if (sq < 0) continue;
        bb tg = targets(code, sq, side, own, enemy, rats);
        while (tg) {
            out[n++] = sq * 64 + __builtin_ctzll(tg);
            tg &= tg - 1;
        }
    }
    return n;
}

static int count_moves(void) {
    bb own = side_bits(side), enemy = side_bits(1 - side), rats = rat_bits();
    int n = 0;
    for (int a = 1; a <= 8; a++) {
        int code = side * 8 + a, sq = pos[code];
        if (sq < 0) continue;
        n += __builtin_popcountll(targets(code, sq, side, own, enemy, rats));
    }
    return n;
}

typedef struct { int frm, to, code, captured, clock, status; } undo_t;

static void make(int mv, undo_t *u) {
    int frm = mv >> 6, to = mv & 63, code = board[frm], cap = board[to];
    u->frm = frm; u->to = to; u->code = code; u->captured = cap;
    u->clock = clock_; u->status = status;
    board[to] = code;
    board[frm] = 0;
    pos[code] = to;
    int enemy = 1 - side;
    if (cap) {
        pos[cap] = -1;
        count[enemy]--;
        clock_ = 0;
    } else {
        clock_++;
    }
    if (to == DEN[enemy] || count[enemy] == 0) status = 1;
    else if (clock_ >= 200) status = 3;
    side = enemy;
}

static void unmake(const undo_t *u) {
    side = 1 - side;
    board[u->frm] = u->code;
    pos[u->code] = u->frm;
    board[u->to] = u->captured;
    if (u->captured) {
        pos[u->captured] = u->to;
        count[1 - side]++;
    }
    clock_ = u->clock;
    status = u->status;
}

static uint64_t perft(int depth) {
    if (status) return 0;
    if (depth == 1) return (uint64_t)count_moves();
    int moves[48];
    int n = gen(moves);
    uint64_t total = 0;
    undo_t u;
    for (int i = 0; i < n; i++) {
        make(moves[i], &u);
        total += perft(depth - 1);
        unmake(&u);
    }
    return total;
}

static void set_start(void) {
    /* l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r: Red on ranks 1-3, Blue on 7-9. */
    static const int red[9] = {-1, 20, 8, 12, 16, 18, 0, 6, 14}; /* rat .. elephant */
    for (int sq = 0; sq < NSQ; sq++) board[sq] = 0;
    pos[0] = -1;
    for (int a = 1; a <= 8; a++) {
        int sq = red[a];
        pos[a] = sq;
        board[sq] = a;
        int bsq = 62 - sq; /* Blue's pieces stand half a turn round */
        pos[8 + a] = bsq;
        board[bsq] = 8 + a;
    }
    side = 0;
    clock_ = 0;
    status = 0;
    count[0] = count[1] = 8;
}

int main(int argc, char **argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 6;
    int repeat = argc > 2 ? atoi(argv[2]) : 1;
    init_tables();
    init_rat();
    for (int i = 0; i < repeat; i++) {
        set_start();
        struct timespec t0, t1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        uint64_t n = depth == 0 ? 1 : perft(depth);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        printf("%d %llu %.6f\n", depth, (unsigned long long)n, s);
    }
    return 0;
}
