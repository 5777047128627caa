"""Spring Challenge 2021: always WAIT. The weakest possible opponent, for smoke tests."""

import sys


def main() -> None:
    for _ in range(int(input())):
        input()
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        for _ in range(3):
            input()  # nutrients, my sun and score, opponent
        for _ in range(int(input())):
            input()  # trees
        for _ in range(int(input())):
            input()  # possible actions
        print("WAIT", flush=True)


if __name__ == "__main__":
    main()
