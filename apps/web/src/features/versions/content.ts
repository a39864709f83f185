/** Which release notes a language reads: the Chinese ones in Chinese, the English ones otherwise. */
export function notesFor(language: string, version: { contentZh: string; contentEn: string }): string {
  return /^(zh|cn)\b/i.test(language) ? version.contentZh : version.contentEn;
}
