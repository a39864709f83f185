import { fireEvent, screen } from '@testing-library/react';
import { Form } from 'antd';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render.tsx';
import { gatewayCodeField } from './Gateway.tsx';
import { pictureProblem } from './PictureField.tsx';
import { emptyPlant, fieldOfMessage, plantBody } from './PlantForm.tsx';
import { PriceSegmentEditor } from './PriceSegmentEditor.tsx';
import type { SegmentDraft } from './priceSegments.ts';

describe('plant form helpers', () => {
  it('builds the body: trimmed texts, nulls for empties, segments only for time-of-use', () => {
    const values = {
      ...emptyPlant(),
      name: '  Rooftop North ',
      capacity: 12.5,
      timezone: 'Europe/Madrid',
      commissioningDate: dayjs('2025-03-04'),
      address: '  ',
      price: 0.2,
      valuationMethod: 'tou' as const,
      priceSegments: [
        { start: '12:00', end: '23:59', price: 0.3 },
        { start: '00:00', end: '12:00', price: 0.1 },
      ],
    };
    const body = plantBody(values);
    expect(body).toMatchObject({
      name: 'Rooftop North',
      capacity: 12.5,
      commissioningDate: '2025-03-04',
      address: null,
      price: null,
      priceSegments: [
        { start: '00:00', end: '12:00', price: 0.1 },
        { start: '12:00', end: '23:59', price: 0.3 },
      ],
    });
    expect(plantBody({ ...values, valuationMethod: 'constant' })).toMatchObject({ price: 0.2, priceSegments: [] });
  });

  it('points a server validation message at its field', () => {
    expect(fieldOfMessage('body.priceSegments: nothing covers 08:00–09:00')).toBe('priceSegments');
    expect(fieldOfMessage('body.name must be 5 to 32 characters')).toBe('name');
    expect(fieldOfMessage('body.thumbnail must match pattern')).toBe('picture');
    expect(fieldOfMessage('something else')).toBeNull();
    expect(gatewayCodeField(305)).toBe('sn');
    expect(gatewayCodeField(301)).toBe('sn');
    expect(gatewayCodeField(1006)).toBe('key');
    expect(gatewayCodeField(4)).toBeNull();
  });

  it('tells a picture by its bytes and size, not its name', async () => {
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])]);
    const jpeg = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0])]);
    const gif = new Blob([new TextEncoder().encode('GIF89a..')]);
    expect(await pictureProblem(png)).toBeNull();
    expect(await pictureProblem(jpeg)).toBeNull();
    expect(await pictureProblem(gif)).toBe('type');
    const big = { size: 10 * 1024 * 1024 + 1, slice: () => png } as unknown as Blob;
    expect(await pictureProblem(big)).toBe('size');
  });
});

describe('price segment editor', () => {
  function Harness({ initial }: { initial: SegmentDraft[] }) {
    return (
      <Form initialValues={{ segments: initial }}>
        <Form.Item name="segments">
          <PriceSegmentEditor unit="EUR/kWh" />
        </Form.Item>
      </Form>
    );
  }

  it('adds a row covering the day and shows what is missing once touched', async () => {
    renderWithApp(<Harness initial={[]} />);
    fireEvent.click(screen.getByTestId('segment-add'));
    expect(screen.getAllByTestId(/^segment-start-/)).toHaveLength(1);
    // The new row has no price yet: said next to it.
    expect(await screen.findByText('Enter a price')).toBeTruthy();
  }, 20_000);

  it('stops at six rows; splitting and removing keep the day covered', async () => {
    const hours = ['00:00', '04:00', '08:00', '12:00', '16:00', '23:59'];
    const five = hours.slice(0, -1).map((start, i) => ({ start, end: hours[i + 1]!, price: 0.1 }));
    renderWithApp(<Harness initial={five} />);
    const add = screen.getByTestId('segment-add');
    fireEvent.click(add);
    expect(screen.getAllByTestId(/^segment-start-/)).toHaveLength(6);
    expect((add as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('segment-remove-0'));
    expect(screen.getAllByTestId(/^segment-start-/)).toHaveLength(5);
    expect(screen.queryByText(/Overlaps|Nothing covers|must end at|must start at/)).toBeNull();
  }, 20_000);
});
