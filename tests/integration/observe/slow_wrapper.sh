#!/bin/sh
# A site's wrapper that takes its time before it execs the program (modules to load, files to
# stage): 3 s, past the 2 s in which a rank's /proc readings settle (RANK_OBSERVE_SETTLE_S).
sleep 3
exec "$@"
