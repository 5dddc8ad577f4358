// arena_agent.hpp: an agent for the arena in C++17, one header, no dependencies.
//
// Write a function that takes a position and returns one of its legal moves, and hand it to
// arena::play:
//
//     #include "arena_agent.hpp"
//
//     std::string choose(arena::Position& position) {
//         std::uniform_int_distribution<size_t> pick(0, position.legal.size() - 1);
//         return position.legal[pick(position.rng)];
//     }
//
//     int main() { return arena::play(choose, "random, in C++"); }
//
// Build it (g++ -std=c++17 -O2 -o my_agent my_agent.cpp) and enter it in an experiment file as
// `spec = "proc:cmd=path/to/my_agent"`. The arena talks to it over stdin/stdout with the arena
// protocol (docs/src/reference/protocol.md) and keeps it for many games. Write debugging output to std::cerr:
// it goes to the agent's log file; anything else on std::cout is a protocol error that loses
// the game.
//
// What a Position holds (the same as the Python client's): the variant id, your seat, the moves
// so far, the legal moves, the time left, a seeded generator, and a view of the board: the cells
// of an m,n,k board or of any other grid game (Connect Four), the squares of O An Quan, the
// houses of Oware. arena::mnk_winner(board, row, col, k, rule) says whether a stone makes a
// winning line, as the Python client's mnk_winner does.

#ifndef ARENA_AGENT_HPP
#define ARENA_AGENT_HPP

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace arena {

// A position to move in.
struct Position {
    // Every game.
    std::string variant;               // the variant id, like "mnk-5x5k4", "oanquan" or "oware"
    std::string family;                // the id up to its first '-': "mnk", "oanquan", "oware", "connect4"
    int seat = 1;                      // your seat: 1 moves first
    int players = 2;                   // the number of seats
    std::vector<std::string> moves;    // the moves from the start (a random opening included)
    std::vector<std::string> legal;    // the legal moves: return one of them
    std::mt19937_64 rng;               // seeded by the arena for this game
    long long time_ms = 0;             // this move's time budget

    // m,n,k games (rows, cols, board, me and opponent also for any other grid game, like
    // Connect Four: its moves are the legal words, column letters).
    int rows = 0, cols = 0, k = 0;
    std::string rule;                  // "freestyle", "exact" or "caro"
    std::vector<std::string> board;    // board[row][col] is 'X', 'O' or '.', row 0 at the top
    // A game of pieces that move (Breakthrough): kinds[row][col] is the letter of the piece's
    // kind ('p', a pawn) where board has 'X' or 'O', '.' elsewhere; empty for games of stones.
    // Breakthrough's moves are the pawn's cell and its target: "a7a6", a capture "a7b6*".
    std::vector<std::string> kinds;
    char me = 'X', opponent = 'O';

    // O An Quan: the ring of 12 cells in sowing order (0-4 player 1's squares, labels 1-5;
    // 5 mandarin cell A; 6-10 player 2's squares, labels 10, 9, 8, 7, 6; 11 mandarin cell B).
    std::vector<int> seeds;            // small seeds per cell
    std::vector<bool> pieces;          // whether mandarin cells A and B still hold their piece
    std::vector<int> captures;         // captured so far, per seat
    int mandarin = 10;                 // the value of a mandarin piece
    std::vector<int> my_squares;       // the ring indices of your squares, in label order
    // Oware (docs/oware.md): `seeds` holds the 12 houses in sowing order (0-5 South's, seat 1,
    // letters A-F; 6-11 North's, seat 2, letters a-f) and `captures` each seat's store.
    std::vector<int> my_houses;        // the ring indices of your six houses, A-F (a-f) in order
    // Every game: the `board` line's fields by name, as text (docs/protocol.md).
    std::map<std::string, std::string> fields;

    // Seconds left of this move's budget (negative when it is spent).
    double time_left() const {
        std::chrono::duration<double> used = std::chrono::steady_clock::now() - asked_;
        return time_ms / 1000.0 - used.count();
    }

    // (row, col) of an m,n,k move like "b3".
    std::pair<int, int> cell(const std::string& move) const {
        return {std::stoi(move.substr(1)) - 1, move[0] - 'a'};
    }

    // The m,n,k move of cell (row, col): "a1" is row 0, column 0.
    std::string name(int row, int col) const {
        return std::string(1, static_cast<char>('a' + col)) + std::to_string(row + 1);
    }

    // The ring index of an O An Quan square's label.
    int index(int label) const {
        if (players == 2) return label <= 5 ? label - 1 : 16 - label;
        return (label - 1) / 5 * 6 + (label - 1) % 5;
    }

    // The ring index of an Oware house's letter: 'C' is 2, 'c' is 8.
    static int house(char letter) {
        return letter >= 'a' ? 6 + (letter - 'a') : letter - 'A';
    }
    // The letter of the Oware house at ring index `index`: the move that sows it.
    static std::string house_letter(int index) {
        return std::string(1, static_cast<char>(index < 6 ? 'A' + index : 'a' + index - 6));
    }
    // Reports what the search did; the arena logs it and counts `nodes` in its CSV.
    void info(long long nodes, int depth = -1, const std::string& text = "") const {
        std::ostringstream line;
        line << "info nodes=" << nodes;
        if (depth >= 0) line << " depth=" << depth;
        if (!text.empty()) line << " text=" << text;
        std::cout << line.str() << std::endl;
    }

    std::chrono::steady_clock::time_point asked_ = std::chrono::steady_clock::now();
};

// Whether the stone at (row, col) of `board` makes a winning line under `rule` ("freestyle": k
// or more in a row; "exact": exactly k; "caro": k or more, unless the opponent blocks both ends,
// a board edge being no block). The same test as the Python client's mnk_winner: place a stone,
// ask, take it back.
inline bool mnk_winner(const std::vector<std::string>& board, int row, int col, int k,
                       const std::string& rule = "freestyle") {
    const char stone = board[row][col];
    const int rows = static_cast<int>(board.size());
    const int cols = rows > 0 ? static_cast<int>(board[0].size()) : 0;
    const int directions[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (const auto& d : directions) {
        int count = 1;
        bool blocked[2] = {false, false};
        for (int side = 0; side < 2; ++side) {
            const int sign = side == 0 ? 1 : -1;
            int r = row + sign * d[0], c = col + sign * d[1];
            while (r >= 0 && r < rows && c >= 0 && c < cols && board[r][c] == stone) {
                ++count;
                r += sign * d[0];
                c += sign * d[1];
            }
            const bool inside = r >= 0 && r < rows && c >= 0 && c < cols;
            blocked[side] = inside && board[r][c] != '.' && board[r][c] != stone;
        }
        if (rule == "exact") {
            if (count == k) return true;
        } else if (count >= k && (rule != "caro" || !(blocked[0] && blocked[1]))) {
            return true;
        }
    }
    return false;
}

namespace detail {

inline std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string word; in >> word;) out.push_back(word);
    return out;
}

inline std::map<std::string, std::string> fields(const std::vector<std::string>& words) {
    std::map<std::string, std::string> out;
    for (size_t i = 1; i < words.size(); ++i) {
        auto at = words[i].find('=');
        if (at != std::string::npos) out[words[i].substr(0, at)] = words[i].substr(at + 1);
    }
    return out;
}

inline std::vector<int> numbers(const std::string& text) {
    std::vector<int> out;
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(std::stoi(item));
    return out;
}

inline void read_variant(Position& p) {
    p.family = p.variant.substr(0, p.variant.find('-'));
    p.me = p.seat == 1 ? 'X' : 'O';
    p.opponent = p.seat == 1 ? 'O' : 'X';
    if (p.family != "mnk") return;
    // mnk-RxCkK[-exact|-caro][-center]
    std::sscanf(p.variant.c_str(), "mnk-%dx%dk%d", &p.rows, &p.cols, &p.k);
    p.rule = p.variant.find("-exact") != std::string::npos  ? "exact"
             : p.variant.find("-caro") != std::string::npos ? "caro"
                                                             : "freestyle";
}

inline void read_board(Position& p, const std::map<std::string, std::string>& board) {
    p.fields = board;
    if (p.family == "mnk" || board.count("cells")) {
        if (p.family != "mnk") {
            p.rows = std::stoi(board.at("rows"));
            p.cols = std::stoi(board.at("cols"));
        }
        p.board.clear();
        auto cells = board.count("cells") ? board.at("cells") : "";
        std::istringstream in(cells);
        for (std::string row; std::getline(in, row, '/');) p.board.push_back(row);
        p.kinds.clear();
        std::istringstream kinds(board.count("kinds") ? board.at("kinds") : "");
        for (std::string row; std::getline(kinds, row, '/');) p.kinds.push_back(row);
        return;
    }
    auto get = [&](const char* key) { return board.count(key) ? board.at(key) : ""; };
    p.seeds = numbers(get("seeds"));
    p.captures = numbers(get("captures"));
    if (p.family == "oware") {
        p.my_houses.clear();
        for (int i = 6 * (p.seat - 1); i < 6 * p.seat; ++i) p.my_houses.push_back(i);
        return;
    }
    if (p.family != "oanquan") return;
    p.pieces.clear();
    for (int piece : numbers(get("pieces"))) p.pieces.push_back(piece != 0);
    if (!get("mandarin").empty()) p.mandarin = std::stoi(get("mandarin"));
    p.my_squares.clear();
    int first = p.players == 2 ? (p.seat == 1 ? 1 : 6) : 5 * (p.seat - 1) + 1;
    for (int label = first; label < first + 5; ++label) p.my_squares.push_back(p.index(label));
}

}  // namespace detail

// Plays games for the arena until it says `quit`, calling choose(position) for every move.
// `accepts`, if given, says which variant ids the agent plays; the arena is told before the
// first game.
inline int play(const std::function<std::string(Position&)>& choose,
                const std::string& name = "",
                const std::function<bool(const std::string&)>& accepts = nullptr) {
    std::ios::sync_with_stdio(false);
    Position game;
    bool in_game = false;
    std::map<std::string, std::string> board;
    for (std::string line; std::getline(std::cin, line);) {
        auto words = detail::words(line);
        if (words.empty()) continue;
        const std::string& word = words[0];
        if (word == "arena") {
            if (!name.empty()) std::cout << "id name " << name << '\n';
            std::cout << "feature reuse\nready" << std::endl;
        } else if (word == "game") {
            auto f = detail::fields(words);
            if (accepts && !accepts(f["variant"])) {
                std::cout << "error this agent does not play " << f["variant"] << std::endl;
                in_game = false;
                continue;
            }
            game = Position();
            game.variant = f["variant"];
            game.seat = f.count("seat") ? std::stoi(f["seat"]) : 1;
            game.players = f.count("players") ? std::stoi(f["players"]) : 2;
            game.rng.seed(f.count("seed") ? std::stoull(f["seed"]) : 0);
            detail::read_variant(game);
            in_game = true;
            std::cout << "ok" << std::endl;
        } else if (word == "position") {
            game.moves.assign(words.begin() + 1, words.end());
        } else if (word == "legal") {
            game.legal.assign(words.begin() + 1, words.end());
        } else if (word == "board") {
            board = detail::fields(words);
        } else if (word == "go") {
            if (!in_game) {
                std::cout << "error no game was set up" << std::endl;
                continue;
            }
            auto f = detail::fields(words);
            game.time_ms = f.count("time_ms") ? std::stoll(f["time_ms"]) : 0;
            game.asked_ = std::chrono::steady_clock::now();
            try {
                detail::read_board(game, board);
                std::string move = choose(game);
                std::cout << "move " << move << std::endl;
            } catch (const std::exception& error) {
                std::cerr << "choose failed: " << error.what() << std::endl;
                std::string text = error.what();
                for (char& c : text)
                    if (c == '\n' || c == '\r') c = ' ';
                std::cout << "error " << text << std::endl;
            }
        } else if (word == "end") {
            in_game = false;
        } else if (word == "quit") {
            break;
        }
    }
    return 0;
}

}  // namespace arena

#endif  // ARENA_AGENT_HPP
