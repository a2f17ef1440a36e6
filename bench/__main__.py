"""`make bench`: run every benchmark module and print its figures (tests never assert timings)."""
import importlib
import sys

MODULES = ["bench.counting", "bench.tables", "bench.save", "bench.serving", "bench.http2", "bench.live", "bench.taps",
           "bench.bad_input", "bench.evening", "bench.pwa", "bench.hand_cost", "bench.circle", "bench.circle_cups", "bench.cup", "bench.room",
           "bench.startup",
           "bench.lighthouse"]


def main() -> int:
    for name in MODULES:
        module = importlib.import_module(name)  # a module listed and missing is an error, not a silent skip
        print(f"== {name}")
        module.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
