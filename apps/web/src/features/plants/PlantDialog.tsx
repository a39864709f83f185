/** A dialog about one plant (share, transfer): open while there is a plant, its body built anew each time. */
import { Modal } from 'antd';
import type { ReactNode } from 'react';

export interface PlantRef {
  id: number;
  name: string;
  /** The plant's IANA zone: times about the plant are read in it. */
  timezone: string;
}

export function PlantDialog({
  plant,
  onClose,
  title,
  width,
  children,
}: {
  plant: PlantRef | null;
  onClose: () => void;
  title: (plant: PlantRef) => string;
  width: number;
  children: (plant: PlantRef) => ReactNode;
}) {
  return (
    <Modal open={plant !== null} onCancel={onClose} footer={null} title={plant ? title(plant) : ''} destroyOnHidden width={width}>
      {plant && children(plant)}
    </Modal>
  );
}
