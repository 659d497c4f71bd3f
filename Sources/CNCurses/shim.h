#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>
#include <wchar.h>

/* ncurses' attributes, stdscr and COLORS are macros or wrapped variables that Swift cannot import. */
static inline WINDOW *cm_stdscr(void) { return stdscr; }
static inline int cm_colors(void) { return COLORS; }
static inline int cm_color_pairs(void) { return COLOR_PAIRS; }
static inline unsigned int cm_attr_bold(void) { return A_BOLD; }
static inline unsigned int cm_attr_dim(void) { return A_DIM; }
static inline unsigned int cm_attr_reverse(void) { return A_REVERSE; }
static inline unsigned int cm_attr_underline(void) { return A_UNDERLINE; }
static inline void cm_set_attr(WINDOW *w, unsigned int attrs, short pair) { wattr_set(w, (attr_t)attrs, pair, NULL); }
