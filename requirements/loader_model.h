/* SPDX-License-Identifier: Apache-2.0 */
/* loader_model.h - inside the loader only (requirements/loader*.c): what
 * its parsing and checking stages (loader.c) share with the building of
 * the model (loader_model.c). Callers outside use loader.h.
 */
#ifndef RTC_LOADER_MODEL_H
#define RTC_LOADER_MODEL_H

#include <stdbool.h>

#include <libxml/tree.h>

#include "base/diag.h"
#include "requirements/model.h"

#define RTC_NS "urn:rtconform:requirements:1"

/* XML's whitespace (S): space, tab, newline, carriage return. */
static inline bool loader_is_xml_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The line of node n in its file, past the 65535 libxml2 can keep. */
long loader_line_of(const xmlNode *n);

/* Stage 5: the model of doc (checked by stages 1 to 4), its values checked
 * with every problem in diags under the name `file`. NULL only when out of
 * memory; the caller frees the result with req_file_free, and drops it when
 * diags grew. */
struct req_file *loader_build(xmlDocPtr doc, const char *file, struct diag_list *diags);

#endif
