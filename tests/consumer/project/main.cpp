// A user's program: counts the lines of a file with logscan (built by the consumer tests).
#include <logscan.hpp>

#include <cstdio>

struct counter {
    unsigned long long lines = 0;
    void on_line(const logscan::line&) { ++lines; }
};

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    logscan::file_source src{argv[1]};
    logscan::line_buffer carry;
    counter c;
    const logscan::error e = logscan::for_each_line(src, c, carry);
    if (!e.ok()) {
        std::fprintf(stderr, "consumer: %s\n", argv[1]);
        return 1;
    }
    std::printf("lines: %llu\n", c.lines);
    return c.lines > 0 ? 0 : 1;
}
