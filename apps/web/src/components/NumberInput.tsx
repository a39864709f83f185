/**
 * The app's number input: every numeric field goes through this one wrapper of antd's InputNumber,
 * so the input can be changed in one place (e.g. for numbers typed in the interface language).
 */
import { InputNumber, type InputNumberProps } from 'antd';

export type NumberInputProps = Omit<InputNumberProps<number>, 'onChange'> & {
  onChange?: (value: number | null) => void;
};

export function NumberInput(props: NumberInputProps) {
  return <InputNumber<number> {...props} />;
}
