/* Post/start/complete/wait as messages of the wait-for model (rma_waits.h). */
#include "rma_waits.h"

#include "check_event.h"

/* Tags of the synchronization messages; any value works, as no user message travels on a
 * window's communicator id. */
enum { TAG_POSTED = 1, TAG_COMPLETED = 2 };

int rma_waits_role(uint16_t func, rma_waits_role_kind *role)
{
    switch (func) {
    case CHECK_EVENT_FN_WIN_POST:
        *role = (rma_waits_role_kind){.waits = 0, .tag = TAG_POSTED};
        return 1;
    case CHECK_EVENT_FN_WIN_START:
        *role = (rma_waits_role_kind){.waits = 1, .tag = TAG_POSTED};
        return 1;
    case CHECK_EVENT_FN_WIN_COMPLETE:
        *role = (rma_waits_role_kind){.waits = 0, .tag = TAG_COMPLETED};
        return 1;
    case CHECK_EVENT_FN_WIN_WAIT:
        *role = (rma_waits_role_kind){.waits = 1, .tag = TAG_COMPLETED};
        return 1;
    default:
        return 0;
    }
}
