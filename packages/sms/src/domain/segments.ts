// GSM 03.38 default alphabet and its extension table (each extension character costs an escape septet).
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';
const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

/** Number of SMS parts a text needs: GSM-7 (160 alone, 153 per part) or else UCS-2 (70 alone, 67 per part, in UTF-16 units). */
export function countSegments(text: string): number {
  let septets = 0;
  for (const char of text) {
    if (BASIC.has(char)) septets += 1;
    else if (EXTENSION.has(char)) septets += 2;
    else return ucs2Segments(text.length);
  }
  if (septets <= 160) return 1;
  return Math.ceil(septets / 153);
}

function ucs2Segments(units: number): number {
  if (units <= 70) return 1;
  return Math.ceil(units / 67);
}
