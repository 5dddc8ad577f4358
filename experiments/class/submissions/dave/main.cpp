// Plays the last legal move the arena lists. Built by build.sh into ./agent.
#include <iostream>
#include <sstream>
#include <string>

int main() {
    std::string last;
    for (std::string line; std::getline(std::cin, line);) {
        std::istringstream in(line);
        std::string word;
        in >> word;
        if (word == "arena") {
            std::cout << "feature reuse\nready" << std::endl;
        } else if (word == "game") {
            std::cout << "ok" << std::endl;
        } else if (word == "legal") {
            for (std::string w; in >> w;) last = w;
        } else if (word == "go") {
            std::cout << "move " << last << std::endl;
        } else if (word == "quit") {
            break;
        }
    }
}
