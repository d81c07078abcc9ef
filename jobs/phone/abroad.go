package phone

// Numbers of the North American plan outside the United States. The plan's
// numbers are ten digits wherever they ring: Canada's and the Caribbean's
// look like any other and pass Normalize. The US registry and a US scrub
// answer for US numbers (its territories' included) only; a number
// elsewhere is on its own country's lists, which nothing here checks.

// foreignAreaCodes are the area codes of the plan in use outside the United
// States and its territories, with their country (ISO code), as
// jobs/calltime's table (generated from libphonenumber) has them; a test
// there holds the two alike.
var foreignAreaCodes = map[uint64]string{
	204: "CA", 226: "CA", 236: "CA", 242: "BS", 246: "BB", 249: "CA", 250: "CA", 257: "CA",
	263: "CA", 264: "AI", 268: "AG", 284: "VG", 289: "CA", 306: "CA", 343: "CA", 345: "KY",
	354: "CA", 365: "CA", 367: "CA", 368: "CA", 382: "CA", 403: "CA", 416: "CA", 418: "CA",
	428: "CA", 431: "CA", 437: "CA", 438: "CA", 441: "BM", 450: "CA", 468: "CA", 473: "GD",
	474: "CA", 506: "CA", 514: "CA", 519: "CA", 548: "CA", 579: "CA", 581: "CA", 584: "CA",
	587: "CA", 600: "CA", 604: "CA", 613: "CA", 622: "CA", 633: "CA", 639: "CA", 647: "CA",
	649: "TC", 658: "JM", 664: "MS", 672: "CA", 683: "CA", 705: "CA", 709: "CA", 721: "SX",
	742: "CA", 753: "CA", 758: "LC", 767: "DM", 778: "CA", 780: "CA", 782: "CA", 784: "VC",
	807: "CA", 809: "DO", 819: "CA", 825: "CA", 829: "DO", 849: "DO", 867: "CA", 868: "TT",
	869: "KN", 873: "CA", 876: "JM", 879: "CA", 902: "CA", 905: "CA", 942: "CA",
}

// abroadByCode is foreignAreaCodes by area code, for a look-up per phone
// read without hashing.
var abroadByCode = func() (t [1000]string) {
	for npa, c := range foreignAreaCodes {
		t[npa] = c
	}
	return t
}()

// Abroad is the country (ISO code: "CA", "JM") of a valid number's area
// code outside the United States and its territories; "" for a number in
// the US (key as Key returns it; 0 none).
func Abroad(key uint64) string {
	npa := key / 10_000_000
	if npa >= 1000 {
		return ""
	}
	return abroadByCode[npa]
}

// countryNames are the countries of foreignAreaCodes by their ISO code.
var countryNames = map[string]string{
	"AG": "Antigua and Barbuda", "AI": "Anguilla", "BB": "Barbados", "BM": "Bermuda", "BS": "the Bahamas",
	"CA": "Canada", "DM": "Dominica", "DO": "the Dominican Republic", "GD": "Grenada", "JM": "Jamaica",
	"KN": "Saint Kitts and Nevis", "KY": "the Cayman Islands", "LC": "Saint Lucia", "MS": "Montserrat",
	"SX": "Sint Maarten", "TC": "the Turks and Caicos Islands", "TT": "Trinidad and Tobago",
	"VC": "Saint Vincent and the Grenadines", "VG": "the British Virgin Islands",
}

// CountryName is the name of a country Abroad returns ("CA": Canada); the
// code itself for one it does not know.
func CountryName(code string) string {
	if n, ok := countryNames[code]; ok {
		return n
	}
	return code
}
