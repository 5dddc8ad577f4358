// Broken on purpose: does not compile (a missing semicolon and an undeclared name), so the
// build fails and the submission is excluded with the compiler's last lines.
#include <iostream>

int main() {
    std::cout << "ready" << std::endl
    return undeclared_name;
}
