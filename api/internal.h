/* internal.h - what the API's files share; not part of the public interface. */
#ifndef CUTUNE_API_INTERNAL_H
#define CUTUNE_API_INTERNAL_H

#include "cutune.h"

#include <stdbool.h>

#include "../base/err.h"
#include "../compiler/plan.h"
#include "../compiler/spec.h"
#include "../lang/diag.h"
#include "../tuner/session.h"




#endif
