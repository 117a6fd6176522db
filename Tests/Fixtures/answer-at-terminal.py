#!/usr/bin/python3
"""Runs a program on a pseudo-terminal and answers its question as a person would.

    answer-at-terminal.py ANSWER PROGRAM [ARGUMENT...]

PROGRAM's standard input, output and error are a new terminal. Once it has written a line ending
in "] " (a question with its choices, "[y/N] "), ANSWER and Return are typed. Everything PROGRAM
wrote is printed; the exit status is PROGRAM's. Gives up after 20 s (exit 124).
"""
import os
import pty
import select
import sys
import time

answer, program = sys.argv[1], sys.argv[2:]
pid, terminal = pty.fork()
if pid == 0:
    os.execv(program[0], program)

deadline = time.monotonic() + 20
written, answered = b"", False
while True:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        os.kill(pid, 9)
        sys.stdout.write(written.decode("utf-8", "replace"))
        sys.exit(124)
    ready, _, _ = select.select([terminal], [], [], remaining)
    if not ready:
        continue
    try:
        chunk = os.read(terminal, 4096)
    except OSError:  # the program ended and closed the terminal
        break
    if not chunk:
        break
    written += chunk
    if not answered and written.endswith(b"] "):
        os.write(terminal, answer.encode() + b"\r")
        answered = True

_, status = os.waitpid(pid, 0)
sys.stdout.write(written.decode("utf-8", "replace"))
sys.exit(os.waitstatus_to_exitcode(status))
