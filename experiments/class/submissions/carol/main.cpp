// Tic-tac-toe for the arena protocol in C++: win if it can, block if it must, else the first
// free cell of centre, corners, sides. Built by its Makefile into ./agent.
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

static std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

int main() {
    const char* lines[8][3] = {{"a1", "b1", "c1"}, {"a2", "b2", "c2"}, {"a3", "b3", "c3"},
                               {"a1", "a2", "a3"}, {"b1", "b2", "b3"}, {"c1", "c2", "c3"},
                               {"a1", "b2", "c3"}, {"a3", "b2", "c1"}};
    std::vector<std::string> moves, legal;
    for (std::string line; std::getline(std::cin, line);) {
        auto w = words(line);
        if (w.empty()) continue;
        if (w[0] == "arena") {
            std::cout << "id name carol\nfeature reuse\nready" << std::endl;
        } else if (w[0] == "game") {
            std::cout << "ok" << std::endl;
        } else if (w[0] == "position") {
            moves.assign(w.begin() + 1, w.end());
        } else if (w[0] == "legal") {
            legal.assign(w.begin() + 1, w.end());
        } else if (w[0] == "go") {
            std::set<std::string> mine, theirs, free(legal.begin(), legal.end());
            for (size_t i = 0; i < moves.size(); i++)
                ((i % 2) == (moves.size() % 2) ? mine : theirs).insert(moves[i]);
            std::string choice;
            for (auto* side : {&mine, &theirs}) {
                for (auto& l : lines) {
                    int own = 0;
                    std::string gap;
                    for (auto* c : l) {
                        if (side->count(c)) own++;
                        else if (free.count(c)) gap = c;
                    }
                    if (own == 2 && !gap.empty() && choice.empty()) choice = gap;
                }
            }
            for (auto* c : {"b2", "a1", "c3", "a3", "c1", "a2", "b1", "b3", "c2"})
                if (choice.empty() && free.count(c)) choice = c;
            if (choice.empty()) choice = legal.front();
            std::cout << "move " << choice << std::endl;
        } else if (w[0] == "quit") {
            break;
        }
    }
}
