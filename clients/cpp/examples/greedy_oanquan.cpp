// A greedy O An Quan agent in C++ (seed 001's "capture the most now"): every legal move is
// sown on a copy of the ring with the canonical rules, and the move that captures the most is
// played (ties at random). The arena's `greedy` is the same idea.
//
//     g++ -std=c++17 -O2 -o greedy_oanquan clients/cpp/examples/greedy_oanquan.cpp
//     proc:cmd=./greedy_oanquan
//
// The sowing below is the canonical rules of docs/src/reference/protocol.md's ring (relay, capture, chain
// capture, the refill of an empty side); under a rule variant it only misjudges some captures,
// it never plays an illegal move: the move comes from the arena's legal list.

#include <string>
#include <vector>

#include "../arena_agent.hpp"

namespace {

struct Ring {
    std::vector<int> seeds;
    std::vector<bool> pieces;  // one per mandarin cell, in ring order
    int mandarin = 10;

    int size() const { return static_cast<int>(seeds.size()); }
    static bool is_mandarin(int i) { return i % 6 == 5; }
    bool has_piece(int i) const { return is_mandarin(i) && pieces[i / 6]; }
    bool empty(int i) const { return seeds[i] == 0 && !has_piece(i); }
    int value(int i) const { return seeds[i] + (has_piece(i) ? mandarin : 0); }
    int after(int i, int step) const { return (i + step + size()) % size(); }

    // Takes what cell i holds.
    int take(int i) {
        int got = value(i);
        seeds[i] = 0;
        if (is_mandarin(i)) pieces[i / 6] = false;
        return got;
    }

    // Sows `square` in direction `step` (+1 or -1 along the ring): the value captured.
    int sow(int square, int step) {
        int at = square;
        for (;;) {
            int hand = seeds[at];
            seeds[at] = 0;
            int last = at;
            for (; hand > 0; --hand) {
                last = after(last, step);
                ++seeds[last];
            }
            int next = after(last, step);
            if (!is_mandarin(next) && seeds[next] > 0) {
                at = next;  // relay: sow the next square's seeds on
                continue;
            }
            if (!empty(next)) return 0;  // a mandarin cell that holds something ends the turn
            int captured = 0;
            int target = after(next, step);
            while (!empty(target)) {  // capture, then chain over each empty cell
                captured += take(target);
                int gap = after(target, step);
                if (!empty(gap)) break;
                target = after(gap, step);
            }
            return captured;
        }
    }
};

std::string choose(arena::Position& position) {
    Ring ring{position.seeds, position.pieces, position.mandarin};
    // An empty side is refilled from the captures before the move.
    bool empty_side = true;
    for (int square : position.my_squares) empty_side = empty_side && ring.seeds[square] == 0;
    if (empty_side)
        for (int square : position.my_squares) ring.seeds[square] = 1;
    int best = -1;
    std::vector<std::string> best_moves;
    for (const std::string& move : position.legal) {
        int label = std::stoi(move.substr(0, move.size() - 1));
        bool right = move.back() == 'P' || move.back() == 'R';
        // P is towards increasing index for seat 1 of 2 and for every seat of 3-4 players;
        // for seat 2 of 2 it is towards decreasing index.
        int step = (position.players == 2 && position.seat == 2) == right ? -1 : 1;
        Ring copy = ring;
        int captured = copy.sow(position.index(label), step);
        if (captured > best) {
            best = captured;
            best_moves = {move};
        } else if (captured == best) {
            best_moves.push_back(move);
        }
    }
    std::uniform_int_distribution<size_t> pick(0, best_moves.size() - 1);
    position.info(static_cast<long long>(position.legal.size()), 1,
                  "captures " + std::to_string(best));
    return best_moves[pick(position.rng)];
}

}  // namespace

int main() {
    return arena::play(choose, "greedy O An Quan, in C++", [](const std::string& variant) {
        return variant.rfind("oanquan", 0) == 0;
    });
}
