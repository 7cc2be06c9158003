// GSM 03.38 default alphabet and its extension table (each extension character costs an escape septet).
const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
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

/** How a text is counted as SMS parts: its encoding, parts, units used (GSM-7 septets or UCS-2 UTF-16 units) and units left in the last part. */
export interface SegmentInfo {
  encoding: 'GSM-7' | 'UCS-2';
  segments: number;
  units: number;
  /** Characters (units) that still fit before another part is needed. */
  remaining: number;
}

/** The Send form's counter: the same rules as countSegments (an empty text is one part with all of it left). */
export function segmentInfo(text: string): SegmentInfo {
  let septets = 0;
  let gsm = true;
  for (const char of text) {
    if (BASIC.has(char)) septets += 1;
    else if (EXTENSION.has(char)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  const [units, single, part] = gsm ? [septets, 160, 153] : [text.length, 70, 67];
  const segments = units <= single ? 1 : Math.ceil(units / part);
  const capacity = segments === 1 ? single : segments * part;
  return { encoding: gsm ? 'GSM-7' : 'UCS-2', segments, units, remaining: capacity - units };
}
