#ifndef ISOBAR_ICU_H
#define ISOBAR_ICU_H
// CLDR's plural rules and number formats through ICU (Debian libicu-dev). Only plain C types cross this
// header: ICU's own headers must stay out of Swift's view, where Foundation's private
// copy of ICU declares the same types differently.

// The rules for a locale ("ru", "pt_BR"); NULL when ICU cannot open them. Kept for the
// process's life: selecting is a const call, safe from any thread.
const void *isobar_plural_rules_open(const char *locale);

// The category ("one", "few", …) for `number`, written to `category` as ASCII; its
// length, or -1.
int isobar_plural_rules_select(const void *rules, double number, char *category, int capacity);

// Every category the locale's rules use, separated by spaces; its length, or -1.
int isobar_plural_rules_keywords(const void *rules, char *out, int capacity);

// A number formatter for a locale and an ICU number skeleton ("measure-unit/
// speed-kilometer-per-hour unit-width-short precision-integer"); NULL when ICU rejects
// either. Kept for the process's life: formatting is a const call, safe from any thread.
const void *isobar_number_format_open(const char *locale, const char *skeleton);

// `number` formatted (or only its unit, "км/ч", when `unit_only` is 1), as UTF-8 in
// `out`; its length in bytes, or -1.
int isobar_number_format(const void *format, double number, int unit_only, char *out, int capacity);

// Whether `code_point` is written right to left (bidi class R or AL: Hebrew, Arabic…).
int isobar_is_right_to_left(unsigned int code_point);
#endif
