/*
 * A stand-in for Windows' bcryptprimitives.dll, for the Wine smoke test only
 * (it never ships). Go 1.22 and later read random bytes with ProcessPrng from
 * bcryptprimitives.dll, which Debian 12's Wine 8.0 does not have: every Go
 * program then stops at start with "bcryptprimitives.dll not found". This DLL
 * exports ProcessPrng and fills the buffer with RtlGenRandom
 * (SystemFunction036 of advapi32), which Wine has.
 *
 * Built by packaging/windows/smoke.sh:
 *   x86_64-w64-mingw32-gcc -shared -O2 -s -o bcryptprimitives.dll bcryptprimitives.c -ladvapi32
 */
#include <windows.h>

/* RtlGenRandom: declared here because ntsecapi.h names it only as a macro. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* ProcessPrng is documented to always return TRUE; it returns FALSE only if
 * RtlGenRandom fails, which Go then reports instead of using bad bytes. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, n))
            return FALSE;
        data += n;
        length -= n;
    }
    return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance;
    (void)reason;
    (void)reserved;
    return TRUE;
}
