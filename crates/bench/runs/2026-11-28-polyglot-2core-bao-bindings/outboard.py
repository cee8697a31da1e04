# N calls of chunkhash.bao.outboard on SIZE bytes, for callgrind (N=0: the baseline).
import sys
from chunkhash import bao
size, group_log, n = (int(a) for a in sys.argv[1:4])
data = bytes(range(256)) * (size // 256)
for _ in range(n):
    bao.outboard(data, group_log=group_log)
