#include <mpv/client.h>
#include <locale.h>
