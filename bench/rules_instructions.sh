#!/usr/bin/env bash
# Instructions per bot game of a title, counted by valgrind's callgrind: the same count on a
# busy machine as on a quiet one, unlike the timed playouts of bench/rules_playouts.py.
#
#   bash bench/rules_instructions.sh key-harvest 4 5    # title, players, games
#
# Plays seeds 0..G (G+1 games) and seed 0 alone, and prints (the first minus the second) / G:
# the interpreter's start-up, the imports and the first game's cold caches cancel out.
# Needs valgrind (Debian's package) and the project's .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
title=$1 players=$2 games=$3
count() {
  PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python -c "
import sys; sys.path.insert(0, '.')
from app.games.playout import bot_playout
for seed in range($1): bot_playout('$title', $players, seed=seed)
" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
one=$(count 1)
many=$(count $((games + 1)))
echo "$title ${players}p: $(( (many - one) / games )) instructions per bot game (seeds 1..$games, less seed 0 alone)"
