"""Builds apps/web/src/app/fonts/bogwan-halfwidth-forms.woff from the bundled Pretendard.

Pretendard has the CJK brackets 「 」 『 』 but not their halfwidth forms ｡ ｢ ｣ ､ ･
(U+FF61-FF65), which Korean documents use (noori.hwp: ｢누리｣); without a font that has
them they showed as empty boxes. This font holds just those five, drawn from Pretendard's
own 。 「 」 、 ・ with a half-width advance. Pretendard is under the SIL Open Font License
1.1 (Reserved Font Name "Pretendard"), so the derived font carries another name and the
licence text (OFL.txt beside it).

Run from the repository root: python3 apps/web/build/halfwidth-forms-font.py (needs fonttools).
"""

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont

SOURCE = "node_modules/pretendard/dist/public/static/Pretendard-Regular.otf"
TARGET = "apps/web/src/app/fonts/bogwan-halfwidth-forms.woff"
FAMILY = "Bogwan Halfwidth Forms"
# halfwidth code point -> the Pretendard code point whose drawing it reuses
FORMS = {0xFF61: 0x3002, 0xFF62: 0x300C, 0xFF63: 0x300D, 0xFF64: 0x3001, 0xFF65: 0x30FB}
SIDE = 120  # side bearing on each side, in font units (2048 per em)

source = TTFont(SOURCE)
upem = source["head"].unitsPerEm
glyph_set = source.getGlyphSet()
source_cmap = source.getBestCmap()

order = [".notdef"] + [f"uni{code:04X}" for code in FORMS]
charstrings, metrics, cmap = {}, {}, {}
empty = T2CharStringPen(upem // 2, None)
charstrings[".notdef"] = empty.getCharString()
metrics[".notdef"] = (upem // 2, 0)
for code, base in FORMS.items():
    name = f"uni{code:04X}"
    glyph = glyph_set[source_cmap[base]]
    bounds = BoundsPen(glyph_set)
    glyph.draw(bounds)
    x_min, _, x_max, _ = bounds.bounds
    advance = int(x_max - x_min) + 2 * SIDE
    pen = T2CharStringPen(advance, None)
    glyph.draw(TransformPen(pen, (1, 0, 0, 1, SIDE - x_min, 0)))
    charstrings[name] = pen.getCharString()
    metrics[name] = (advance, SIDE)
    cmap[code] = name

os2 = source["OS/2"]
hhea = source["hhea"]
builder = FontBuilder(upem, isTTF=False)
builder.setupGlyphOrder(order)
builder.setupCharacterMap(cmap)
builder.setupCFF(FAMILY.replace(" ", ""), {"FullName": FAMILY}, charstrings, {})
builder.setupHorizontalMetrics(metrics)
builder.setupHorizontalHeader(ascent=hhea.ascent, descent=hhea.descent)
builder.setupNameTable(
    {
        "familyName": FAMILY,
        "styleName": "Regular",
        "copyright": "Copyright (c) 2021, Kil Hyung-jin (https://github.com/orioncactus/pretendard), with Reserved Font Name Pretendard.",
        "licenseDescription": "This Font Software is licensed under the SIL Open Font License, Version 1.1.",
        "licenseInfoURL": "https://openfontlicense.org",
    }
)
builder.setupOS2(
    sTypoAscender=os2.sTypoAscender,
    sTypoDescender=os2.sTypoDescender,
    sTypoLineGap=os2.sTypoLineGap,
    usWinAscent=os2.usWinAscent,
    usWinDescent=os2.usWinDescent,
    ulUnicodeRange3=0,
)
builder.setupPost()
builder.font.flavor = "woff"
builder.save(TARGET)
print("wrote", TARGET)
