; SkipDesk's Windows installer (NSIS 3). packaging/windows/dist.sh runs
;   makensis -DVERSION=0.1.0 -DVERSION4=0.1.0.42 -DSTAGE=<folder> -DOUTFILE=<setup.exe> -DSIGN=<command> installer.nsi
; STAGE holds SkipDesk.exe, skipdesk-cli.exe, LICENSE.txt,
; THIRD_PARTY_NOTICES.txt and SkipDesk.ico.
;
; Per-user: installs into %LOCALAPPDATA%\Programs\SkipDesk with no
; administrator rights, a Start-menu shortcut for this user, and an entry in
; Settings > Apps (HKCU). The uninstaller keeps the person's data folder
; (%AppData%\SkipDesk: jobs, results, settings) unless they tick "Also remove
; my SkipDesk data". Silent: setup.exe /S [/D=folder], "Uninstall SkipDesk.exe" /S
; (keeps the data).

; A 64-bit installer, like the program it installs (and Wine without its
; 32-bit half runs it too).
Target amd64-unicode
!include "MUI2.nsh"
!include "FileFunc.nsh"

!ifndef VERSION | VERSION4 | STAGE | OUTFILE
  !error "define VERSION, VERSION4, STAGE and OUTFILE (see the top of this file)"
!endif

!define APP "SkipDesk"
!define UNINSTALLER "Uninstall SkipDesk.exe"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\SkipDesk"

Name "${APP}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\${APP}"
InstallDirRegKey HKCU "Software\${APP}" "InstallDir"
SetCompressor /SOLID lzma
ManifestDPIAware true
BrandingText "${APP} ${VERSION}"

VIProductVersion "${VERSION4}"
VIFileVersion "${VERSION4}"
VIAddVersionKey "ProductName" "${APP}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileVersion" "${VERSION4}"
VIAddVersionKey "FileDescription" "${APP} ${VERSION} setup"
VIAddVersionKey "CompanyName" "${APP}"
VIAddVersionKey "LegalCopyright" "Copyright (c) 2026 SkipDesk. All rights reserved."

; The uninstaller is signed as it is written into the installer.
!ifdef SIGN
  !uninstfinalize '${SIGN} "%1"'
!endif

!define MUI_ICON "${STAGE}\SkipDesk.ico"
!define MUI_UNICON "${STAGE}\SkipDesk.ico"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\SkipDesk.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Start SkipDesk"
!define MUI_COMPONENTSPAGE_NODESC

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_LICENSE "${STAGE}\LICENSE.txt"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH

!define MUI_COMPONENTSPAGE_TEXT_TOP "SkipDesk will be removed. Your jobs, results and settings stay in $APPDATA\SkipDesk unless you tick the box below."
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_COMPONENTS
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"

Section "SkipDesk" SecApp
  SectionIn RO
  SetShellVarContext current
  SetOutPath "$INSTDIR"
  File "${STAGE}\SkipDesk.exe"
  File "${STAGE}\skipdesk-cli.exe"
  File "${STAGE}\LICENSE.txt"
  File "${STAGE}\THIRD_PARTY_NOTICES.txt"
  WriteUninstaller "$INSTDIR\${UNINSTALLER}"
  CreateShortcut "$SMPROGRAMS\${APP}.lnk" "$INSTDIR\SkipDesk.exe" "" "$INSTDIR\SkipDesk.exe" 0 SW_SHOWNORMAL "" "Skip-trace owner lists and scrub phone lists"

  WriteRegStr HKCU "Software\${APP}" "InstallDir" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "${APP}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "${APP}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\SkipDesk.exe"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" '"$INSTDIR\${UNINSTALLER}"'
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\${UNINSTALLER}" /S'
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKCU "${UNINST_KEY}" "EstimatedSize" "$0"
SectionEnd

Section "un.SkipDesk (the program)" UnSecApp
  SectionIn RO
  SetShellVarContext current
  Delete "$SMPROGRAMS\${APP}.lnk"
  Delete "$INSTDIR\SkipDesk.exe"
  Delete "$INSTDIR\skipdesk-cli.exe"
  Delete "$INSTDIR\LICENSE.txt"
  Delete "$INSTDIR\THIRD_PARTY_NOTICES.txt"
  Delete "$INSTDIR\${UNINSTALLER}"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINST_KEY}"
  DeleteRegKey HKCU "Software\${APP}"
SectionEnd

; Off unless ticked: the data folder holds the ledger of paid jobs and the
; downloaded results.
Section /o "un.Also remove my SkipDesk data (jobs, results, settings, saved API key)" UnSecData
  SetShellVarContext current
  RMDir /r "$APPDATA\SkipDesk"
  ; The keyring entries (Windows Credential Manager, generic credentials).
  nsExec::Exec 'cmdkey.exe /delete:SkipDesk:api-key'
  Pop $0
  nsExec::Exec 'cmdkey.exe /delete:SkipDesk:webhook-secret'
  Pop $0
SectionEnd
