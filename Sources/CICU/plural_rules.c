#include "isobar_icu.h"
#include <unicode/upluralrules.h>
#include <unicode/uenum.h>
#include <unicode/ustring.h>

// ICU renames every function after its version (uplrules_select_72 on Debian 12):
// here, on the C side, its headers' macros name the right one.

// CLDR's plural rules for a locale ("ru", "pt_BR"); NULL when ICU cannot open them.
// Kept for the process's life: selecting is a const call, safe from any thread.
const void *isobar_plural_rules_open(const char *locale) {
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(locale, &status);
    if (U_FAILURE(status)) { if (rules) uplrules_close(rules); return 0; }
    return rules;
}

// The category ("one", "few", …) for `number`, written to `category` as ASCII;
// its length, or -1.
int isobar_plural_rules_select(const void *rules, double number, char *category, int capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UChar buffer[16];
    int32_t length = uplrules_select((const UPluralRules *)rules, number, buffer, 16, &status);
    if (U_FAILURE(status) || length >= capacity) return -1;
    u_UCharsToChars(buffer, category, length);
    category[length] = 0;
    return length;
}

// Every category the locale's rules use, separated by spaces; its length, or -1.
int isobar_plural_rules_keywords(const void *rules, char *out, int capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UEnumeration *keywords = uplrules_getKeywords((const UPluralRules *)rules, &status);
    if (U_FAILURE(status)) return -1;
    int used = 0;
    const char *keyword;
    int32_t length;
    while ((keyword = uenum_next(keywords, &length, &status)) != 0 && U_SUCCESS(status)) {
        if (used + length + 2 > capacity) { uenum_close(keywords); return -1; }
        if (used > 0) out[used++] = ' ';
        for (int32_t i = 0; i < length; i++) out[used++] = keyword[i];
    }
    out[used] = 0;
    uenum_close(keywords);
    return U_SUCCESS(status) ? used : -1;
}
