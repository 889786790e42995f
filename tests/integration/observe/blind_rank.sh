#!/bin/sh
# Between the launcher and the program, as a site's wrapper script might: rank $BLIND_RANK (default
# 1) loses LD_PRELOAD. A merge of the user's LD_PRELOAD with mpiguard's cannot undo this.
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-}}
[ "$rank" = "${BLIND_RANK:-1}" ] && unset LD_PRELOAD
exec "$@"
