#ifndef ISOBAR_ICU_H
#define ISOBAR_ICU_H
// CLDR's plural rules through ICU (Debian libicu-dev). Only plain C types cross this
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
#endif
