# Bitwuzla on an SMT-LIB 2 script read from standard input, through the
# Python bindings its PyPI package installs (the package ships no program):
# symcross runs it as `python3 -c <this> <time limit in ms>`, as it runs the
# cvc5 and z3 programs (src/solver/process.rs).
import sys
import bitwuzla as bw

tm = bw.TermManager()
opts = bw.Options()
opts.set(bw.Option.PRODUCE_MODELS, True)
opts.set(bw.Option.TIME_LIMIT_PER, int(sys.argv[1]))
parser = bw.Parser(tm, opts)
parser.parse(sys.stdin.read(), False, False)
