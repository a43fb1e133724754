/**
 * SPEC §3 "Country table: name, ISO code, dialling code, optional area codes". Pure data: the checkout's
 * country picker lists it, and a number's area code tells which of the countries sharing a dialling code
 * it belongs to (+1 416 Canada, +1 876 Jamaica, +7 7… Kazakhstan), ADR 0027.
 *
 * Derived from libphonenumber-js 1.13.16 metadata (the library the checkout validates with); the test
 * beside this file checks every row and area code against the library, so an upgrade that moves a code
 * fails there. Names are English (Intl.DisplayNames 'en').
 */
export interface Country {
  name: string;
  /** ISO 3166-1 alpha-2, upper case */
  iso: string;
  /** the dialling code, digits without '+' */
  dialCode: string;
  /**
   * The leading digits of the national number that belong to this country, for a country that shares
   * its dialling code with a larger one (which has none). Absent where the dialling code is its own, or
   * where only the whole number tells (Guernsey, Jersey and a few other territories: see ADR 0027).
   */
  areaCodes?: readonly string[];
}

/** SPEC §9 "Phone default: country us, dial code 1". */
export const DEFAULT_PHONE_COUNTRY = 'US';

/** Every country libphonenumber-js knows, by English name. */
export const COUNTRIES: readonly Country[] = [
  { name: 'Afghanistan', iso: 'AF', dialCode: '93' },
  { name: 'Åland Islands', iso: 'AX', dialCode: '358', areaCodes: ['18'] },
  { name: 'Albania', iso: 'AL', dialCode: '355' },
  { name: 'Algeria', iso: 'DZ', dialCode: '213' },
  { name: 'American Samoa', iso: 'AS', dialCode: '1', areaCodes: ['684'] },
  { name: 'Andorra', iso: 'AD', dialCode: '376' },
  { name: 'Angola', iso: 'AO', dialCode: '244' },
  { name: 'Anguilla', iso: 'AI', dialCode: '1', areaCodes: ['264'] },
  { name: 'Antigua & Barbuda', iso: 'AG', dialCode: '1', areaCodes: ['268'] },
  { name: 'Argentina', iso: 'AR', dialCode: '54' },
  { name: 'Armenia', iso: 'AM', dialCode: '374' },
  { name: 'Aruba', iso: 'AW', dialCode: '297' },
  { name: 'Ascension Island', iso: 'AC', dialCode: '247' },
  { name: 'Australia', iso: 'AU', dialCode: '61' },
  { name: 'Austria', iso: 'AT', dialCode: '43' },
  { name: 'Azerbaijan', iso: 'AZ', dialCode: '994' },
  { name: 'Bahamas', iso: 'BS', dialCode: '1', areaCodes: ['242'] },
  { name: 'Bahrain', iso: 'BH', dialCode: '973' },
  { name: 'Bangladesh', iso: 'BD', dialCode: '880' },
  { name: 'Barbados', iso: 'BB', dialCode: '1', areaCodes: ['246'] },
  { name: 'Belarus', iso: 'BY', dialCode: '375' },
  { name: 'Belgium', iso: 'BE', dialCode: '32' },
  { name: 'Belize', iso: 'BZ', dialCode: '501' },
  { name: 'Benin', iso: 'BJ', dialCode: '229' },
  { name: 'Bermuda', iso: 'BM', dialCode: '1', areaCodes: ['441'] },
  { name: 'Bhutan', iso: 'BT', dialCode: '975' },
  { name: 'Bolivia', iso: 'BO', dialCode: '591' },
  { name: 'Bosnia & Herzegovina', iso: 'BA', dialCode: '387' },
  { name: 'Botswana', iso: 'BW', dialCode: '267' },
  { name: 'Brazil', iso: 'BR', dialCode: '55' },
  { name: 'British Indian Ocean Territory', iso: 'IO', dialCode: '246' },
  { name: 'British Virgin Islands', iso: 'VG', dialCode: '1', areaCodes: ['284'] },
  { name: 'Brunei', iso: 'BN', dialCode: '673' },
  { name: 'Bulgaria', iso: 'BG', dialCode: '359' },
  { name: 'Burkina Faso', iso: 'BF', dialCode: '226' },
  { name: 'Burundi', iso: 'BI', dialCode: '257' },
  { name: 'Cambodia', iso: 'KH', dialCode: '855' },
  { name: 'Cameroon', iso: 'CM', dialCode: '237' },
  {
    name: 'Canada',
    iso: 'CA',
    dialCode: '1',
    areaCodes: [
      '204',
      '226',
      '236',
      '249',
      '250',
      '257',
      '263',
      '273',
      '289',
      '306',
      '343',
      '354',
      '365',
      '367',
      '368',
      '382',
      '403',
      '416',
      '418',
      '428',
      '431',
      '437',
      '438',
      '450',
      '468',
      '474',
      '506',
      '514',
      '519',
      '548',
      '579',
      '581',
      '584',
      '587',
      '600',
      '604',
      '613',
      '622',
      '633',
      '639',
      '647',
      '672',
      '683',
      '705',
      '709',
      '742',
      '753',
      '778',
      '780',
      '782',
      '807',
      '819',
      '825',
      '867',
      '873',
      '879',
      '902',
      '905',
      '942',
    ],
  },
  { name: 'Cape Verde', iso: 'CV', dialCode: '238' },
  { name: 'Caribbean Netherlands', iso: 'BQ', dialCode: '599', areaCodes: ['3', '4', '7'] },
  { name: 'Cayman Islands', iso: 'KY', dialCode: '1', areaCodes: ['345'] },
  { name: 'Central African Republic', iso: 'CF', dialCode: '236' },
  { name: 'Chad', iso: 'TD', dialCode: '235' },
  { name: 'Chile', iso: 'CL', dialCode: '56' },
  { name: 'China', iso: 'CN', dialCode: '86' },
  { name: 'Christmas Island', iso: 'CX', dialCode: '61' },
  { name: 'Cocos (Keeling) Islands', iso: 'CC', dialCode: '61' },
  { name: 'Colombia', iso: 'CO', dialCode: '57' },
  { name: 'Comoros', iso: 'KM', dialCode: '269' },
  { name: 'Congo - Brazzaville', iso: 'CG', dialCode: '242' },
  { name: 'Congo - Kinshasa', iso: 'CD', dialCode: '243' },
  { name: 'Cook Islands', iso: 'CK', dialCode: '682' },
  { name: 'Costa Rica', iso: 'CR', dialCode: '506' },
  { name: 'Côte d’Ivoire', iso: 'CI', dialCode: '225' },
  { name: 'Croatia', iso: 'HR', dialCode: '385' },
  { name: 'Cuba', iso: 'CU', dialCode: '53' },
  { name: 'Curaçao', iso: 'CW', dialCode: '599' },
  { name: 'Cyprus', iso: 'CY', dialCode: '357' },
  { name: 'Czechia', iso: 'CZ', dialCode: '420' },
  { name: 'Denmark', iso: 'DK', dialCode: '45' },
  { name: 'Djibouti', iso: 'DJ', dialCode: '253' },
  { name: 'Dominica', iso: 'DM', dialCode: '1', areaCodes: ['767'] },
  { name: 'Dominican Republic', iso: 'DO', dialCode: '1', areaCodes: ['809', '829', '849'] },
  { name: 'Ecuador', iso: 'EC', dialCode: '593' },
  { name: 'Egypt', iso: 'EG', dialCode: '20' },
  { name: 'El Salvador', iso: 'SV', dialCode: '503' },
  { name: 'Equatorial Guinea', iso: 'GQ', dialCode: '240' },
  { name: 'Eritrea', iso: 'ER', dialCode: '291' },
  { name: 'Estonia', iso: 'EE', dialCode: '372' },
  { name: 'Eswatini', iso: 'SZ', dialCode: '268' },
  { name: 'Ethiopia', iso: 'ET', dialCode: '251' },
  { name: 'Falkland Islands', iso: 'FK', dialCode: '500' },
  { name: 'Faroe Islands', iso: 'FO', dialCode: '298' },
  { name: 'Fiji', iso: 'FJ', dialCode: '679' },
  { name: 'Finland', iso: 'FI', dialCode: '358' },
  { name: 'France', iso: 'FR', dialCode: '33' },
  { name: 'French Guiana', iso: 'GF', dialCode: '594' },
  { name: 'French Polynesia', iso: 'PF', dialCode: '689' },
  { name: 'Gabon', iso: 'GA', dialCode: '241' },
  { name: 'Gambia', iso: 'GM', dialCode: '220' },
  { name: 'Georgia', iso: 'GE', dialCode: '995' },
  { name: 'Germany', iso: 'DE', dialCode: '49' },
  { name: 'Ghana', iso: 'GH', dialCode: '233' },
  { name: 'Gibraltar', iso: 'GI', dialCode: '350' },
  { name: 'Greece', iso: 'GR', dialCode: '30' },
  { name: 'Greenland', iso: 'GL', dialCode: '299' },
  { name: 'Grenada', iso: 'GD', dialCode: '1', areaCodes: ['473'] },
  { name: 'Guadeloupe', iso: 'GP', dialCode: '590' },
  { name: 'Guam', iso: 'GU', dialCode: '1', areaCodes: ['671'] },
  { name: 'Guatemala', iso: 'GT', dialCode: '502' },
  { name: 'Guernsey', iso: 'GG', dialCode: '44' },
  { name: 'Guinea', iso: 'GN', dialCode: '224' },
  { name: 'Guinea-Bissau', iso: 'GW', dialCode: '245' },
  { name: 'Guyana', iso: 'GY', dialCode: '592' },
  { name: 'Haiti', iso: 'HT', dialCode: '509' },
  { name: 'Honduras', iso: 'HN', dialCode: '504' },
  { name: 'Hong Kong SAR China', iso: 'HK', dialCode: '852' },
  { name: 'Hungary', iso: 'HU', dialCode: '36' },
  { name: 'Iceland', iso: 'IS', dialCode: '354' },
  { name: 'India', iso: 'IN', dialCode: '91' },
  { name: 'Indonesia', iso: 'ID', dialCode: '62' },
  { name: 'Iran', iso: 'IR', dialCode: '98' },
  { name: 'Iraq', iso: 'IQ', dialCode: '964' },
  { name: 'Ireland', iso: 'IE', dialCode: '353' },
  { name: 'Isle of Man', iso: 'IM', dialCode: '44', areaCodes: ['74576', '1624', '7524', '7624'] },
  { name: 'Israel', iso: 'IL', dialCode: '972' },
  { name: 'Italy', iso: 'IT', dialCode: '39' },
  { name: 'Jamaica', iso: 'JM', dialCode: '1', areaCodes: ['658', '876'] },
  { name: 'Japan', iso: 'JP', dialCode: '81' },
  { name: 'Jersey', iso: 'JE', dialCode: '44' },
  { name: 'Jordan', iso: 'JO', dialCode: '962' },
  { name: 'Kazakhstan', iso: 'KZ', dialCode: '7', areaCodes: ['7'] },
  { name: 'Kenya', iso: 'KE', dialCode: '254' },
  { name: 'Kiribati', iso: 'KI', dialCode: '686' },
  { name: 'Kosovo', iso: 'XK', dialCode: '383' },
  { name: 'Kuwait', iso: 'KW', dialCode: '965' },
  { name: 'Kyrgyzstan', iso: 'KG', dialCode: '996' },
  { name: 'Laos', iso: 'LA', dialCode: '856' },
  { name: 'Latvia', iso: 'LV', dialCode: '371' },
  { name: 'Lebanon', iso: 'LB', dialCode: '961' },
  { name: 'Lesotho', iso: 'LS', dialCode: '266' },
  { name: 'Liberia', iso: 'LR', dialCode: '231' },
  { name: 'Libya', iso: 'LY', dialCode: '218' },
  { name: 'Liechtenstein', iso: 'LI', dialCode: '423' },
  { name: 'Lithuania', iso: 'LT', dialCode: '370' },
  { name: 'Luxembourg', iso: 'LU', dialCode: '352' },
  { name: 'Macao SAR China', iso: 'MO', dialCode: '853' },
  { name: 'Madagascar', iso: 'MG', dialCode: '261' },
  { name: 'Malawi', iso: 'MW', dialCode: '265' },
  { name: 'Malaysia', iso: 'MY', dialCode: '60' },
  { name: 'Maldives', iso: 'MV', dialCode: '960' },
  { name: 'Mali', iso: 'ML', dialCode: '223' },
  { name: 'Malta', iso: 'MT', dialCode: '356' },
  { name: 'Marshall Islands', iso: 'MH', dialCode: '692' },
  { name: 'Martinique', iso: 'MQ', dialCode: '596' },
  { name: 'Mauritania', iso: 'MR', dialCode: '222' },
  { name: 'Mauritius', iso: 'MU', dialCode: '230' },
  { name: 'Mayotte', iso: 'YT', dialCode: '262' },
  { name: 'Mexico', iso: 'MX', dialCode: '52' },
  { name: 'Micronesia', iso: 'FM', dialCode: '691' },
  { name: 'Moldova', iso: 'MD', dialCode: '373' },
  { name: 'Monaco', iso: 'MC', dialCode: '377' },
  { name: 'Mongolia', iso: 'MN', dialCode: '976' },
  { name: 'Montenegro', iso: 'ME', dialCode: '382' },
  { name: 'Montserrat', iso: 'MS', dialCode: '1', areaCodes: ['664'] },
  { name: 'Morocco', iso: 'MA', dialCode: '212' },
  { name: 'Mozambique', iso: 'MZ', dialCode: '258' },
  { name: 'Myanmar (Burma)', iso: 'MM', dialCode: '95' },
  { name: 'Namibia', iso: 'NA', dialCode: '264' },
  { name: 'Nauru', iso: 'NR', dialCode: '674' },
  { name: 'Nepal', iso: 'NP', dialCode: '977' },
  { name: 'Netherlands', iso: 'NL', dialCode: '31' },
  { name: 'New Caledonia', iso: 'NC', dialCode: '687' },
  { name: 'New Zealand', iso: 'NZ', dialCode: '64' },
  { name: 'Nicaragua', iso: 'NI', dialCode: '505' },
  { name: 'Niger', iso: 'NE', dialCode: '227' },
  { name: 'Nigeria', iso: 'NG', dialCode: '234' },
  { name: 'Niue', iso: 'NU', dialCode: '683' },
  { name: 'Norfolk Island', iso: 'NF', dialCode: '672' },
  { name: 'North Korea', iso: 'KP', dialCode: '850' },
  { name: 'North Macedonia', iso: 'MK', dialCode: '389' },
  { name: 'Northern Mariana Islands', iso: 'MP', dialCode: '1', areaCodes: ['670'] },
  { name: 'Norway', iso: 'NO', dialCode: '47' },
  { name: 'Oman', iso: 'OM', dialCode: '968' },
  { name: 'Pakistan', iso: 'PK', dialCode: '92' },
  { name: 'Palau', iso: 'PW', dialCode: '680' },
  { name: 'Palestinian Territories', iso: 'PS', dialCode: '970' },
  { name: 'Panama', iso: 'PA', dialCode: '507' },
  { name: 'Papua New Guinea', iso: 'PG', dialCode: '675' },
  { name: 'Paraguay', iso: 'PY', dialCode: '595' },
  { name: 'Peru', iso: 'PE', dialCode: '51' },
  { name: 'Philippines', iso: 'PH', dialCode: '63' },
  { name: 'Poland', iso: 'PL', dialCode: '48' },
  { name: 'Portugal', iso: 'PT', dialCode: '351' },
  { name: 'Puerto Rico', iso: 'PR', dialCode: '1', areaCodes: ['787', '939'] },
  { name: 'Qatar', iso: 'QA', dialCode: '974' },
  { name: 'Réunion', iso: 'RE', dialCode: '262' },
  { name: 'Romania', iso: 'RO', dialCode: '40' },
  { name: 'Russia', iso: 'RU', dialCode: '7' },
  { name: 'Rwanda', iso: 'RW', dialCode: '250' },
  { name: 'Samoa', iso: 'WS', dialCode: '685' },
  { name: 'San Marino', iso: 'SM', dialCode: '378' },
  { name: 'São Tomé & Príncipe', iso: 'ST', dialCode: '239' },
  { name: 'Saudi Arabia', iso: 'SA', dialCode: '966' },
  { name: 'Senegal', iso: 'SN', dialCode: '221' },
  { name: 'Serbia', iso: 'RS', dialCode: '381' },
  { name: 'Seychelles', iso: 'SC', dialCode: '248' },
  { name: 'Sierra Leone', iso: 'SL', dialCode: '232' },
  { name: 'Singapore', iso: 'SG', dialCode: '65' },
  { name: 'Sint Maarten', iso: 'SX', dialCode: '1', areaCodes: ['721'] },
  { name: 'Slovakia', iso: 'SK', dialCode: '421' },
  { name: 'Slovenia', iso: 'SI', dialCode: '386' },
  { name: 'Solomon Islands', iso: 'SB', dialCode: '677' },
  { name: 'Somalia', iso: 'SO', dialCode: '252' },
  { name: 'South Africa', iso: 'ZA', dialCode: '27' },
  { name: 'South Korea', iso: 'KR', dialCode: '82' },
  { name: 'South Sudan', iso: 'SS', dialCode: '211' },
  { name: 'Spain', iso: 'ES', dialCode: '34' },
  { name: 'Sri Lanka', iso: 'LK', dialCode: '94' },
  { name: 'St. Barthélemy', iso: 'BL', dialCode: '590' },
  { name: 'St. Helena', iso: 'SH', dialCode: '290' },
  { name: 'St. Kitts & Nevis', iso: 'KN', dialCode: '1', areaCodes: ['869'] },
  { name: 'St. Lucia', iso: 'LC', dialCode: '1', areaCodes: ['758'] },
  { name: 'St. Martin', iso: 'MF', dialCode: '590' },
  { name: 'St. Pierre & Miquelon', iso: 'PM', dialCode: '508' },
  { name: 'St. Vincent & Grenadines', iso: 'VC', dialCode: '1', areaCodes: ['784'] },
  { name: 'Sudan', iso: 'SD', dialCode: '249' },
  { name: 'Suriname', iso: 'SR', dialCode: '597' },
  { name: 'Svalbard & Jan Mayen', iso: 'SJ', dialCode: '47', areaCodes: ['79'] },
  { name: 'Sweden', iso: 'SE', dialCode: '46' },
  { name: 'Switzerland', iso: 'CH', dialCode: '41' },
  { name: 'Syria', iso: 'SY', dialCode: '963' },
  { name: 'Taiwan', iso: 'TW', dialCode: '886' },
  { name: 'Tajikistan', iso: 'TJ', dialCode: '992' },
  { name: 'Tanzania', iso: 'TZ', dialCode: '255' },
  { name: 'Thailand', iso: 'TH', dialCode: '66' },
  { name: 'Timor-Leste', iso: 'TL', dialCode: '670' },
  { name: 'Togo', iso: 'TG', dialCode: '228' },
  { name: 'Tokelau', iso: 'TK', dialCode: '690' },
  { name: 'Tonga', iso: 'TO', dialCode: '676' },
  { name: 'Trinidad & Tobago', iso: 'TT', dialCode: '1', areaCodes: ['868'] },
  { name: 'Tristan da Cunha', iso: 'TA', dialCode: '290', areaCodes: ['8'] },
  { name: 'Tunisia', iso: 'TN', dialCode: '216' },
  { name: 'Türkiye', iso: 'TR', dialCode: '90' },
  { name: 'Turkmenistan', iso: 'TM', dialCode: '993' },
  { name: 'Turks & Caicos Islands', iso: 'TC', dialCode: '1', areaCodes: ['649'] },
  { name: 'Tuvalu', iso: 'TV', dialCode: '688' },
  { name: 'U.S. Virgin Islands', iso: 'VI', dialCode: '1', areaCodes: ['340'] },
  { name: 'Uganda', iso: 'UG', dialCode: '256' },
  { name: 'Ukraine', iso: 'UA', dialCode: '380' },
  { name: 'United Arab Emirates', iso: 'AE', dialCode: '971' },
  { name: 'United Kingdom', iso: 'GB', dialCode: '44' },
  { name: 'United States', iso: 'US', dialCode: '1' },
  { name: 'Uruguay', iso: 'UY', dialCode: '598' },
  { name: 'Uzbekistan', iso: 'UZ', dialCode: '998' },
  { name: 'Vanuatu', iso: 'VU', dialCode: '678' },
  { name: 'Vatican City', iso: 'VA', dialCode: '39', areaCodes: ['06698'] },
  { name: 'Venezuela', iso: 'VE', dialCode: '58' },
  { name: 'Vietnam', iso: 'VN', dialCode: '84' },
  { name: 'Wallis & Futuna', iso: 'WF', dialCode: '681' },
  { name: 'Western Sahara', iso: 'EH', dialCode: '212' },
  { name: 'Yemen', iso: 'YE', dialCode: '967' },
  { name: 'Zambia', iso: 'ZM', dialCode: '260' },
  { name: 'Zimbabwe', iso: 'ZW', dialCode: '263' },
];

/** The country a shared dialling code means when no area code says otherwise. */
export const MAIN_COUNTRY_OF_DIAL_CODE: Readonly<Record<string, string>> = {
  '1': 'US',
  '7': 'RU',
  '39': 'IT',
  '44': 'GB',
  '47': 'NO',
  '61': 'AU',
  '212': 'MA',
  '262': 'RE',
  '290': 'SH',
  '358': 'FI',
  '590': 'GP',
  '599': 'CW',
};

export const countryByIso = (iso: string, table: readonly Country[] = COUNTRIES): Country | undefined => {
  const wanted = iso.toUpperCase();
  return table.find((c) => c.iso === wanted);
};

/**
 * The country of a national number typed under a dialling code. `current` is the country chosen now:
 * it is kept while the digits cannot decide yet (too few to cover an area code that could still match)
 * and when it has no area codes of its own and none matches (a Guernsey number stays Guernsey).
 * The longest matching area code wins (Isle of Man 74576 before a shorter code).
 */
export const countryForNationalNumber = (
  dialCode: string,
  nationalDigits: string,
  current: string,
  table: readonly Country[] = COUNTRIES,
): string => {
  const group = table.filter((c) => c.dialCode === dialCode);
  if (group.length === 0) return current;
  const digits = nationalDigits.replace(/\D/g, '');
  let best: { iso: string; length: number } | null = null;
  let undecided = false;
  for (const country of group) {
    for (const code of country.areaCodes ?? []) {
      if (digits.startsWith(code) && (!best || code.length > best.length)) best = { iso: country.iso, length: code.length };
      else if (code.startsWith(digits) && code.length > digits.length) undecided = true;
    }
  }
  if (best) return best.iso;
  const currentCountry = group.find((c) => c.iso === current);
  if (undecided) return currentCountry ? current : (MAIN_COUNTRY_OF_DIAL_CODE[dialCode] ?? group[0]?.iso ?? current);
  if (currentCountry && !currentCountry.areaCodes?.length) return current;
  return MAIN_COUNTRY_OF_DIAL_CODE[dialCode] ?? group[0]?.iso ?? current;
};

/**
 * An international number (`+44 1624 …`, `001 …` is not read) split into its country and national
 * digits: the dialling code is the longest one in the table that starts the digits (ITU codes are
 * prefix-free), then the area code picks among the countries sharing it. Undefined when none fits.
 */
export const countryForInternationalNumber = (
  international: string,
  current: string,
  table: readonly Country[] = COUNTRIES,
): { iso: string; nationalDigits: string } | undefined => {
  const digits = international.replace(/\D/g, '');
  for (let length = Math.min(3, digits.length); length >= 1; length -= 1) {
    const dialCode = digits.slice(0, length);
    if (!table.some((c) => c.dialCode === dialCode)) continue;
    const nationalDigits = digits.slice(length);
    const keep = table.find((c) => c.iso === current && c.dialCode === dialCode)?.iso ?? MAIN_COUNTRY_OF_DIAL_CODE[dialCode] ?? '';
    const iso = countryForNationalNumber(dialCode, nationalDigits, keep, table);
    return { iso: iso || (table.find((c) => c.dialCode === dialCode)?.iso ?? current), nationalDigits };
  }
  return undefined;
};
