/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The interposition library's logger: write(2) only (no stdio, no malloc), safe anywhere, prefixed
 * "mpiguard[rank]: ". Used only for the library's own trouble, once per problem. */
#ifndef MG_INTERPOSE_LOG_H
#define MG_INTERPOSE_LOG_H

void interpose_log_set_rank(int rank);
/* Writes "mpiguard[rank]: <a><b>\n"; b may be NULL. */
void interpose_log(const char *a, const char *b);

#endif
