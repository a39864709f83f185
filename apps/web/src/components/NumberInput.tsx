/**
 * The one number field: antd's InputNumber writing and reading numbers in the interface
 * language (es: "1.234,5", and "12,5" typed is 12.5; en: "1,234.5"). What is typed stays as
 * typed until the field is left; `maxDecimals` keeps at most that many decimals.
 */
import { InputNumber, type InputNumberProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { numberLocale } from '../lib/format.ts';
import { formatNumberInput, parseNumberInput } from '../lib/numberInput.ts';

export type NumberInputProps = Omit<InputNumberProps<number>, 'formatter' | 'parser' | 'decimalSeparator' | 'stringMode'> & {
  maxDecimals?: number;
};

export function NumberInput({ maxDecimals, ...props }: NumberInputProps) {
  // Re-render when the language changes: the marks come with it.
  useTranslation();
  const locale = numberLocale();
  return (
    <InputNumber<number>
      {...props}
      formatter={(value, { userTyping, input }) => (userTyping ? input : formatNumberInput(value, locale))}
      // Blank is no value; text that is no number leaves the value as it was (NaN is ignored).
      parser={(text) =>
        text?.trim() ? (parseNumberInput(text, locale, maxDecimals) ?? Number.NaN) : (null as unknown as number)
      }
    />
  );
}
