#include "isobar_icu.h"
#include <unicode/unum.h>
#include <unicode/unumberformatter.h>
#include <unicode/uformattedvalue.h>
#include <unicode/uchar.h>
#include <unicode/ustring.h>

// A number formatter for a locale and an ICU number skeleton
// ("measure-unit/speed-kilometer-per-hour unit-width-short precision-integer");
// NULL when ICU rejects either. Kept for the process's life: formatting is a const call
// on it, safe from any thread (each call has its own result object).
const void *isobar_number_format_open(const char *locale, const char *skeleton) {
    UErrorCode status = U_ZERO_ERROR;
    UChar pattern[256];
    u_strFromUTF8(pattern, 256, 0, skeleton, -1, &status);
    if (U_FAILURE(status)) return 0;
    UNumberFormatter *format = unumf_openForSkeletonAndLocale(pattern, -1, locale, &status);
    if (U_FAILURE(status)) { if (format) unumf_close(format); return 0; }
    return format;
}

// The span of the unit ("км/ч", "%") in a formatted number, or the whole text when
// `unit_only` is 0.
static void unit_span(const UFormattedNumber *result, int unit_only, int32_t length,
                      int32_t *start, int32_t *limit, UErrorCode *status) {
    *start = 0;
    *limit = length;
    if (!unit_only) return;
    *limit = 0;
    const UFormattedValue *value = unumf_resultAsValue(result, status);
    UConstrainedFieldPosition *position = ucfpos_open(status);
    if (U_FAILURE(*status)) { if (position) ucfpos_close(position); return; }
    while (ufmtval_nextPosition(value, position, status) && U_SUCCESS(*status)) {
        int32_t field = ucfpos_getField(position, status);
        if (ucfpos_getCategory(position, status) == UFIELD_CATEGORY_NUMBER
            && (field == UNUM_MEASURE_UNIT_FIELD || field == UNUM_PERCENT_FIELD)) {
            ucfpos_getIndexes(position, start, limit, status);
            break;
        }
    }
    ucfpos_close(position);
}

// `number` formatted (or only its unit, when `unit_only` is 1), as UTF-8 in `out`; its
// length in bytes, or -1.
int isobar_number_format(const void *format, double number, int unit_only, char *out, int capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UFormattedNumber *result = unumf_openResult(&status);
    if (U_FAILURE(status)) return -1;
    unumf_formatDouble((const UNumberFormatter *)format, number, result, &status);
    UChar text[128];
    int32_t length = unumf_resultToString(result, text, 128, &status);
    int32_t start = 0, limit = 0;
    if (U_SUCCESS(status) && length < 128) unit_span(result, unit_only, length, &start, &limit, &status);
    unumf_closeResult(result);
    if (U_FAILURE(status) || length >= 128) return -1;
    int32_t bytes = 0;
    u_strToUTF8(out, capacity, &bytes, text + start, limit - start, &status);
    if (U_FAILURE(status) || bytes >= capacity) return -1;
    out[bytes] = 0;
    return bytes;
}

// Whether `code_point` is written right to left (bidi class R or AL: Hebrew, Arabic…).
int isobar_is_right_to_left(unsigned int code_point) {
    UCharDirection direction = u_charDirection((UChar32)code_point);
    return direction == U_RIGHT_TO_LEFT || direction == U_RIGHT_TO_LEFT_ARABIC;
}
