/** Text of a PDF, page by page, through pdfjs-dist's legacy build (the one that runs on Node 20 without a DOM). */
export async function pdfText(data: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdfjs transfers (detaches) the buffer it is given: hand it a copy.
  const document = await pdfjs.getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false, disableFontFace: true }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        text += item.hasEOL ? '\n' : ' ';
      }
      pages.push(text.replace(/[ \t]+\n/g, '\n').trim());
    }
    return pages.filter((p) => p !== '').join('\n\n');
  } finally {
    await document.destroy();
  }
}
