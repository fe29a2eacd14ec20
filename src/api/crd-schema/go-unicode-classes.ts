/**
 * The names Go 1.24's regexp accepts in `\p{...}` and `\P{...}` (regexp/syntax unicodeTable: `Any`,
 * the keys of unicode.Categories and of unicode.Scripts, Unicode 15.0.0). Kubernetes 1.33 is
 * built with Go 1.24. RE2JS accepts more (`Cn`, `LC`, `Lc`, `Ascii`, `Assigned`, binary
 * properties such as `White_Space`, `Unknown`, and scripts of Unicode 16 and 17); a pattern
 * naming one of those is refused as Go 1.24 refuses it.
 */

const CATEGORIES =
  'C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs';

const SCRIPTS = `Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak
Bengali Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian
Chakma Cham Cherokee Chorasmian Common Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic Deseret Devanagari
Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Georgian Glagolitic Gothic
Grantha Greek Gujarati Gunjala_Gondi Gurmukhi Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana
Imperial_Aramaic Inherited Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi Kannada Katakana
Kawi Kayah_Li Kharoshthi Khitan_Small_Script Khmer Khojki Khudawadi Lao Latin Lepcha Limbu Linear_A
Linear_B Lisu Lycian Lydian Mahajani Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi
Medefaidrin Meetei_Mayek Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro
Multani Myanmar Nabataean Nag_Mundari Nandinagari New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham
Ol_Chiki Old_Hungarian Old_Italic Old_North_Arabian Old_Permic Old_Persian Old_Sogdian Old_South_Arabian
Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician
Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada Shavian Siddham SignWriting Sinhala Sogdian
Sora_Sompeng Soyombo Sundanese Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil
Tangsa Tangut Telugu Thaana Thai Tibetan Tifinagh Tirhuta Toto Ugaritic Vai Vithkuqi Wancho Warang_Citi
Yezidi Yi Zanabazar_Square`;

const GO_CLASSES = new Set(['Any', ...CATEGORIES.split(' '), ...SCRIPTS.split(/\s+/)]);

/**
 * The first `\p`/`\P` class of `pattern` whose name Go 1.24 does not know, as written
 * (`\p{Cn}`, `\pX`, `\P{^Ascii}`), or undefined. Only meaningful for a pattern RE2JS compiled:
 * it skips `\Q...\E` literals and other escapes but does not otherwise parse.
 */
export function unknownGoClass(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '\\') continue;
    const n = pattern[i + 1];
    if (n === 'Q') {
      const end = pattern.indexOf('\\E', i + 2);
      if (end < 0) return undefined;
      i = end + 1;
    } else if (n === 'p' || n === 'P') {
      let seq: string;
      let name: string;
      if (pattern[i + 2] === '{') {
        const end = pattern.indexOf('}', i + 3);
        if (end < 0) return undefined;
        seq = pattern.slice(i, end + 1);
        name = pattern.slice(i + 3, end);
      } else {
        name = String.fromCodePoint(pattern.codePointAt(i + 2) ?? 0);
        seq = `\\${n}${name}`;
      }
      if (!GO_CLASSES.has(name.startsWith('^') ? name.slice(1) : name)) return seq;
      i += seq.length - 1;
    } else i++;
  }
  return undefined;
}
